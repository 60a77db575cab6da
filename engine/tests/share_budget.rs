//! Link length budgets (docs/SHARING.md): 20 kernels with their machine in ≤ 2 000 characters,
//! 500 kernels in ≤ 32 000, on realistic data: 6–10 measured counters per kernel with
//! profiler-like magnitudes, C++/CUDA names of 30–120 characters as PyTorch, cuDNN, CUTLASS,
//! Kokkos and hand-written codes produce them, and 10% TensorFlow/Eigen names of 400+.
//! `cargo test -p roofline-engine --test share_budget -- --nocapture` prints the lengths.

mod samples;
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::catalogue;
use roofline_engine::share::{self, SharedKernel, View};
use roofline_engine::load_dataset;

/// xorshift64*: deterministic, so the measured lengths are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// 10^U(lo, hi).
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        10f64.powf(lo + (hi - lo) * self.unit())
    }
}

const TYPES: [&str; 5] = ["float", "double", "c10::Half", "c10::BFloat16", "int"];
const OPS: [&str; 8] = ["sum", "product", "difference", "max", "min", "quotient", "exp", "sqrt"];

fn eigen_leaf(rng: &mut Rng, t: &str) -> String {
    let rank = 1 + rng.below(4);
    let idx = rng.pick(&["int", "long"]);
    format!("Eigen::TensorMap<Eigen::Tensor<{t} const, {rank}, 1, {idx}>, 16, Eigen::MakePointer>")
}

/// TensorFlow's Eigen kernels: a TensorAssignOp over nested binary/unary ops, 400+ characters.
fn tensorflow_name(rng: &mut Rng) -> String {
    let t = rng.pick(&["float", "Eigen::half", "double"]);
    let mut expr = eigen_leaf(rng, t);
    for _ in 0..1 + rng.below(3) {
        let op = rng.pick(&OPS);
        expr = if rng.below(2) == 0 {
            format!("Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_{op}_op<{t} const, {t} const>, {expr} const, {} const>", eigen_leaf(rng, t))
        } else {
            format!("Eigen::TensorCwiseUnaryOp<Eigen::internal::scalar_{op}_op<{t}>, {expr} const>")
        };
    }
    let rank = 1 + rng.below(4);
    let lhs = format!("Eigen::TensorMap<Eigen::Tensor<{t}, {rank}, 1, long>, 16, Eigen::MakePointer>");
    let eval = format!("Eigen::TensorEvaluator<Eigen::TensorAssignOp<{lhs}, {expr} const> const, Eigen::GpuDevice>");
    format!("void Eigen::internal::EigenMetaKernel<{eval}, long>({eval}, long)")
}

/// Names of 30–120 characters in the styles real profiles show.
fn cuda_name(rng: &mut Rng) -> String {
    let tile = |rng: &mut Rng| [32, 64, 128, 256][rng.below(4)];
    let t = rng.pick(&TYPES);
    match rng.below(10) {
        0 => format!("ampere_fp16_s16816gemm_fp16_{}x{}_ldg8_f2f_stages_{}x{}_{}", tile(rng), tile(rng), tile(rng), 3 + rng.below(3), rng.pick(&["nn", "nt", "tn"])),
        1 => format!("void cutlass::Kernel<cutlass_80_tensorop_{}_s16816gemm_{}x{}_{}x{}_{}_align{}>(Params)", rng.pick(&["f16", "bf16", "s"]), tile(rng), tile(rng), tile(rng), 3 + rng.below(4), rng.pick(&["nn", "tn"]), [2, 4, 8][rng.below(3)]),
        2 => format!("sm80_xmma_gemm_f16f16_f16f32_f32_{}_n_tilesize{}x{}x32_stage{}_warpsize2x2x1_tensor16x8x16_kernel", rng.pick(&["tn", "nn", "nt"]), tile(rng), tile(rng), 3 + rng.below(3)),
        3 => format!("void at::native::vectorized_elementwise_kernel<4, at::native::{}Functor<{t}>, at::detail::Array<char*, {}> >", rng.pick(&["Add", "Mul", "Div", "Sigmoid", "Gelu", "Silu", "Abs"]), 2 + rng.below(2)),
        4 => format!("void at::native::reduce_kernel<{}, {}, at::native::ReduceOp<{t}, at::native::{}Ops<{t}, float> > >", [128, 256, 512][rng.below(3)], 1 + rng.below(4), rng.pick(&["Mean", "Norm", "Sum", "Max"])),
        5 => format!("void cudnn::detail::bn_fw_tr_1C11_kernel_NCHW<{t}, float, {}, true, {}>(cudnnTensorStruct, {t} const*)", [128, 256, 512][rng.below(3)], 1 + rng.below(2)),
        6 => format!("void flash_fwd_kernel<Flash_fwd_kernel_traits<{}, {}, {}, 4, false, false, cutlass::bfloat16_t>, true, false>(Flash_fwd_params)", [64, 128, 256][rng.below(3)], tile(rng), tile(rng)),
        7 => format!("{}_kernel_{}(double*, double const*, int, int, int)", rng.pick(&["jacobi", "laplacian_dp", "stencil27", "advect", "diffuse", "axpy"]), rng.below(100)),
        8 => format!("Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<Functor{}, Kokkos::RangePolicy<> > >", rng.below(1000)),
        _ => format!("void {}<{t}, {}, {}>({t}*, {t} const*, int)", rng.pick(&["transpose_tiled", "softmax_warp_forward", "layer_norm_fwd", "gather_rows", "scatter_add"]), tile(rng), 1 + rng.below(8)),
    }
}

/// One profile run's counter sets (each 6–10 counters), as Nsight Compute / nvprof / rocprof
/// metric selections give them.
const PROFILES: [&[Counter]; 4] = [
    &[Counter::TimeS, Counter::Cycles, Counter::ClockHz, Counter::Fp32Add, Counter::Fp32Mul, Counter::Fp32Fma, Counter::DramBytes, Counter::L2Bytes, Counter::L1Bytes, Counter::WarpInst],
    &[Counter::TimeS, Counter::Fp64Add, Counter::Fp64Mul, Counter::Fp64Fma, Counter::DramBytes, Counter::L2Bytes, Counter::L1Bytes, Counter::SharedBytes],
    &[Counter::TimeS, Counter::Cycles, Counter::ClockHz, Counter::TensorInst, Counter::Fp16Fma, Counter::DramBytes, Counter::L2Bytes],
    &[Counter::TimeS, Counter::WarpInst, Counter::ThreadInst, Counter::GlobalTxn, Counter::L2Txn, Counter::DramTxn, Counter::SharedTxn, Counter::GlobalLdStInst, Counter::SharedLdStInst],
];

fn value(rng: &mut Rng, c: Counter) -> f64 {
    match c {
        // Nanosecond durations, as profilers print them.
        Counter::TimeS => (rng.log_uniform(3.0, 8.0)).round() * 1e-9,
        Counter::ClockHz => (1.2e9 + 2e8 * rng.unit()).round(),
        Counter::Cycles => rng.log_uniform(4.0, 9.0).round(),
        // Bytes move in 32-byte sectors.
        Counter::DramBytes | Counter::L2Bytes | Counter::L1Bytes | Counter::SharedBytes => (rng.log_uniform(3.0, 10.0) / 32.0).round() * 32.0,
        _ => rng.log_uniform(2.0, 11.0).round(),
    }
}

pub fn realistic_kernels(n: usize, seed: u64) -> Vec<SharedKernel> {
    kernels_with(n, seed, 10)
}

/// `n` kernels, `tf_percent`% of them with TensorFlow-style names.
fn kernels_with(n: usize, seed: u64, tf_percent: usize) -> Vec<SharedKernel> {
    let mut rng = Rng(seed);
    let mut names = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let name = if rng.below(100) < tf_percent { tensorflow_name(&mut rng) } else { cuda_name(&mut rng) };
        if !names.insert(name.clone()) {
            continue;
        }
        let profile = PROFILES[rng.below(PROFILES.len())];
        // Half the kernels lack one counter (not the time): a metric that did not apply.
        let dropped = (profile.len() > 6 && rng.below(2) == 0).then(|| 1 + rng.below(profile.len() - 1));
        let mut counters = Counters::default();
        for (i, &c) in profile.iter().enumerate() {
            if Some(i) != dropped {
                counters.set(c, value(&mut rng, c));
            }
        }
        let launches = rng.log_uniform(0.0, 3.0).round() as u64;
        out.push(SharedKernel { name, launches, counters });
    }
    out
}

fn view_of(kernels: Vec<SharedKernel>) -> View {
    View { machine_id: "a100".into(), mode: "hierarchical".into(), selected: Some(1), filter: "gemm".into(), kernels, ..View::default() }
}

#[test]
fn generated_names_and_counters_are_realistic() {
    let ks = realistic_kernels(500, 42);
    let long = ks.iter().filter(|k| k.name.len() >= 400).count();
    let normal: Vec<usize> = ks.iter().map(|k| k.name.len()).filter(|&l| l < 400).collect();
    assert!((30..=80).contains(&long), "{long} TensorFlow-style names");
    assert!(normal.iter().all(|&l| (30..=130).contains(&l)), "{:?}", normal.iter().max());
    assert!(ks.iter().all(|k| (6..=10).contains(&k.counters.iter().count())));
}

#[test]
fn twenty_kernels_with_their_machine_fit_in_2000_characters() {
    let ks = realistic_kernels(20, 7);
    let by_id = share::encode(&view_of(ks.clone())).unwrap();
    println!("20 kernels, catalogue machine: {} characters", by_id.fragment.len());
    assert_eq!(by_id.shortened_names, 0, "20 kernels keep their full names");
    assert!(by_id.fragment.len() <= 2_000, "{}", by_id.fragment.len());

    let mut v = view_of(ks);
    let m = catalogue::v100().at_clock(1312e6);
    v.set_machine(&m);
    let custom = share::encode(&v).unwrap();
    println!("20 kernels, custom machine (V100 at base clock, every field): {} characters", custom.fragment.len());
    assert!(custom.fragment.len() <= 2_000, "{}", custom.fragment.len());
    assert_eq!(share::decode(&custom.fragment).ok().and_then(|v| v.custom_machine), Some(m));
}

#[test]
fn five_hundred_kernels_fit_in_32000_characters() {
    for seed in [1, 2, 3] {
        let v = view_of(realistic_kernels(500, seed));
        let link = share::encode(&v).unwrap();
        println!("500 kernels (seed {seed}): {} characters, {} names shortened", link.fragment.len(), link.shortened_names);
        assert!(link.fragment.len() <= share::MAX_LINK_CHARS);
        let back = share::decode(&link.fragment).unwrap();
        assert_eq!(back.kernels.len(), 500);
        let full = back.kernels.iter().zip(&v.kernels).filter(|(b, a)| b.name == a.name).count();
        assert_eq!(full, 500 - link.shortened_names);
    }
}

#[test]
fn long_names_are_shortened_longest_first_until_the_link_fits() {
    let v = view_of(kernels_with(600, 5, 60));
    let link = share::encode(&v).unwrap();
    println!("600 kernels, 60% TensorFlow names: {} characters, {} names shortened", link.fragment.len(), link.shortened_names);
    assert!(link.fragment.len() <= share::MAX_LINK_CHARS);
    assert!(link.shortened_names > 0 && link.shortened_names < 600);
    let back = share::decode(&link.fragment).unwrap();
    let shortened: Vec<usize> = back.kernels.iter().zip(&v.kernels).filter(|(b, a)| b.name != a.name).map(|(_, a)| a.name.len()).collect();
    let kept_longest = back.kernels.iter().zip(&v.kernels).filter(|(b, a)| b.name == a.name && b.name.contains('<')).map(|(_, a)| a.name.len()).max();
    assert_eq!(shortened.len(), link.shortened_names);
    assert!(shortened.iter().all(|&l| Some(l) > kept_longest), "the longest names go first");
    // A shortened name is the page's short name: told apart from the others where short
    // names collide.
    let full: Vec<&str> = v.kernels.iter().map(|k| k.name.as_str()).collect();
    let short = roofline_engine::domain::short_names::distinct_display_names(&full);
    for ((b, _), s) in back.kernels.iter().zip(&v.kernels).zip(&short).filter(|((b, a), _)| b.name != a.name) {
        assert_eq!(&b.name, s);
    }
    let mut names: Vec<&str> = back.kernels.iter().map(|k| k.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 600, "the reopened link still tells every kernel apart");
}

#[test]
fn short_names_given_by_the_page_make_the_same_link() {
    // The page passes the short names it keeps for its table; the link is the one `encode`
    // makes by working them out. Names of another count are not used.
    let v = view_of(kernels_with(600, 5, 60));
    let full: Vec<&str> = v.kernels.iter().map(|k| k.name.as_str()).collect();
    let short = roofline_engine::domain::short_names::distinct_display_names(&full);
    let made = share::encode(&v).unwrap();
    assert!(made.shortened_names > 0, "the view needs short names");
    let given = share::encode_with_short_names(&v, Some(&short)).unwrap();
    assert_eq!((&given.fragment, given.shortened_names), (&made.fragment, made.shortened_names));
    let wrong = share::encode_with_short_names(&v, Some(&short[1..])).unwrap();
    assert_eq!(wrong.fragment, made.fragment);
    // Given names are what the link carries where a name is shortened.
    let marked: Vec<String> = short.iter().map(|s| format!("{s}!")).collect();
    let back = share::decode(&share::encode_with_short_names(&v, Some(&marked)).unwrap().fragment).unwrap();
    assert!(back.kernels.iter().zip(&v.kernels).filter(|(b, a)| b.name != a.name).all(|(b, _)| b.name.ends_with('!')));
}

#[test]
fn more_than_fits_is_too_large_and_says_so() {
    let v = view_of(realistic_kernels(2_000, 9));
    match share::encode(&v) {
        Err(share::EncodeError::TooLarge { chars, limit, kernels }) => {
            println!("2000 kernels: at least {chars} characters even with short names (its values alone)");
            assert!(chars > limit && kernels == 2_000);
        }
        other => panic!("expected TooLarge, got {:?}", other.map(|l| l.fragment.len())),
    }
}

#[test]
fn the_deep_learning_sample_measures() {
    let files = samples::nersc_run();
    let ds = load_dataset(&files).unwrap();
    let names: usize = ds.kernels.iter().map(|k| k.name.len()).sum();
    let link = share::encode(&View::new(&catalogue::v100(), &ds.kernels)).unwrap();
    println!("DeepLearningProfiling sample: {} kernels, {names} characters of names, link {} characters, {} shortened", ds.kernels.len(), link.fragment.len(), link.shortened_names);
    assert_eq!(link.shortened_names, 0);
    let json = share::file::to_json(&View::new(&catalogue::v100(), &ds.kernels));
    println!("  the same as .roofline.json: {} bytes", json.len());
}

