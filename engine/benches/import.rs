//! Parsing + analysis (`load_dataset`) throughput, criterion `Throughput::Bytes`:
//! the 50 MB Nsight Compute raw page (issue 4's budget: ≥ 200 MB/s natively), read whole and
//! streamed in 1 MiB chunks as the CLI does, and the details-page samples. Run by
//! scripts/bench.sh, which prints the budget table (docs/PERFORMANCE.md).

#[path = "support/big_ncu.rs"]
mod big_ncu;
#[path = "support/inputs.rs"]
mod inputs;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::{load_dataset, SourceFile};
use std::hint::black_box;
use std::time::Duration;

/// The size of the generated raw page: issue 4's acceptance file.
const RAW_BYTES: u64 = 50_000_000;
/// The CLI's read size for large files (cli/src/main.rs `CHUNK_BYTES`).
const CHUNK_BYTES: usize = 1 << 20;

fn raw_page(c: &mut Criterion) {
    let sample = String::from_utf8(inputs::sample(inputs::RAW_SAMPLE).bytes).unwrap_or_default();
    let big = vec![SourceFile { name: "ncu_raw_50MB.csv".into(), bytes: big_ncu::big_ncu(&sample, RAW_BYTES) }];
    let mut g = c.benchmark_group("ncu_raw_50MB");
    g.throughput(Throughput::Bytes(inputs::total_bytes(&big)));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    g.bench_function("load_dataset", |b| b.iter(|| black_box(load_dataset(black_box(&big)))));
    g.bench_function("streamed_1MiB", |b| {
        b.iter(|| {
            let mut builder = DatasetBuilder::new();
            for f in &big {
                for chunk in f.bytes.chunks(CHUNK_BYTES) {
                    let _ = builder.push_chunk(&f.name, chunk);
                }
            }
            black_box(builder.finish())
        })
    });
    g.finish();
}

fn details_page(c: &mut Criterion) {
    let mut g = c.benchmark_group("ncu_details");
    g.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    for (name, files) in [("nsightful_34kB", vec![inputs::sample(inputs::DETAILS_SAMPLE)]), ("nersc_run_5_files", inputs::nersc_run())] {
        g.throughput(Throughput::Bytes(inputs::total_bytes(&files)));
        g.bench_function(name, |b| b.iter_batched(|| (), |_| black_box(load_dataset(black_box(&files))), BatchSize::SmallInput));
    }
    g.finish();
}

criterion_group!(benches, raw_page, details_page);
criterion_main!(benches);
