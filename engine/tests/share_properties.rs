//! Properties of the link codec over random views: decode(encode(v)) is v with counter values
//! quantised to the link's 24-bit floats (everything else exact), encoding is stable through
//! a round trip, and decoding never panics, whatever the text.

use proptest::prelude::*;
use roofline_engine::chart::Zoom;
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::{catalogue, Ceiling, ComputeKind, Level, Machine, MemoryLevel};
use roofline_engine::choice::{ClockBasis, Chosen};
use roofline_engine::domain::{Device, Vendor};
use roofline_engine::share::{self, SharedKernel, View, ViewChoice};

fn finite() -> impl Strategy<Value = f64> {
    use proptest::num::f64::{NEGATIVE, NORMAL, POSITIVE, SUBNORMAL, ZERO};
    prop_oneof![
        4 => (-12.0f64..15.0).prop_map(|e| 10f64.powf(e)),
        1 => POSITIVE | NEGATIVE | NORMAL | SUBNORMAL | ZERO,
        1 => Just(0.0),
    ]
}

fn counters() -> impl Strategy<Value = Counters> {
    prop::collection::vec((0..Counter::ALL.len(), finite()), 0..12).prop_map(|pairs| {
        let mut c = Counters::default();
        for (i, v) in pairs {
            c.set(Counter::ALL[i], v);
        }
        c
    })
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,60}",
        "(void )?[a-z_:]{1,20}<[a-z, 0-9]{0,20}>\\([a-z*, ]{0,20}\\)",
    ]
}

fn kernel() -> impl Strategy<Value = SharedKernel> {
    (name(), any::<u64>(), counters()).prop_map(|(name, launches, counters)| SharedKernel { name, launches, counters })
}

fn machine() -> impl Strategy<Value = Option<Machine>> {
    let kinds = [ComputeKind::Fp64, ComputeKind::Fp32, ComputeKind::Fp16, ComputeKind::Tensor, ComputeKind::Int];
    let custom = (
        "\\PC{0,12}",
        prop::collection::vec(("\\PC{0,10}", 0..kinds.len(), finite()), 0..6),
        prop::collection::vec(("\\PC{0,10}", 0..Level::ALL.len(), finite()), 0..6),
        prop::option::of(finite()),
        0..catalogue::all().len(),
        any::<bool>(),
    )
        .prop_map(move |(id, compute, memory, clock, base, from_catalogue)| {
            let mut m = if from_catalogue { catalogue::all().swap_remove(base) } else { Machine::default() };
            m.id = id;
            m.compute.extend(compute.into_iter().map(|(name, k, v)| Ceiling::vector(&name, kinds[k], v)));
            m.memory.extend(memory.into_iter().map(|(name, l, v)| MemoryLevel { name, level: Level::ALL[l], bytes_per_s: v }));
            m.clock_hz = clock;
            m
        });
    prop::option::of(custom)
}

fn view() -> impl Strategy<Value = View> {
    let settings = (
        "\\PC{0,12}",
        machine(),
        "\\PC{0,12}",
        prop::option::of("\\PC{0,8}"),
        prop::collection::vec("\\PC{0,8}", 0..=16),
        prop::option::of((finite(), finite(), finite(), finite())),
        "\\PC{0,30}",
        prop::option::of(any::<u32>()),
        prop::option::of("\\PC{0,8}"),
        1..=255u8,
    );
    (settings, prop::collection::vec(kernel(), 0..20), any::<prop::sample::Index>(), any::<bool>(), choice(), any::<bool>(), prop::option::of("\\PC{0,8}")).prop_map(
        |((machine_id, custom_machine, mode, compute, hidden_levels, zoom, filter, top_n, theme, word_bytes), kernels, pick, select, choice, all_roofs, color_by)| View {
            machine_id,
            custom_machine,
            mode,
            compute,
            hidden_levels,
            zoom: zoom.map(|(a, b, c, d)| Zoom { x: [a, b], y: [c, d] }),
            filter,
            top_n,
            selected: (select && !kernels.is_empty()).then(|| pick.index(kernels.len())),
            theme,
            word_bytes,
            kernels,
            choice,
            all_roofs,
            color_by,
            runs: None,
        },
    )
}

/// A machine choice as links carry it: any provenance and clock basis, any device identity,
/// any measured clock.
fn choice() -> impl Strategy<Value = Option<ViewChoice>> {
    let device = (prop::option::of("\\PC{0,20}"), prop::option::of(0..3usize), prop::option::of("\\PC{0,8}"), prop::option::of(any::<u32>())).prop_map(|(name, vendor, arch, sm_count)| {
        let vendor = vendor.map(|i| [Vendor::Nvidia, Vendor::Amd, Vendor::Intel][i]);
        Device { name, vendor, arch, sm_count, ..Device::default() }
    });
    let chosen = prop::option::of(0..3usize).prop_map(|i| i.map(|i| [Chosen::Profile, Chosen::Option, Chosen::File][i]));
    let clock = prop::option::of(0..5usize).prop_map(|i| i.map(|i| [ClockBasis::Measured, ClockBasis::Base, ClockBasis::Boost, ClockBasis::Given, ClockBasis::Stated][i]));
    prop::option::of((chosen, clock, prop::option::of(device), prop::option::of(finite()))).prop_map(|c| {
        c.map(|(chosen, clock, device, measured_sm_clock_hz)| ViewChoice { chosen, clock, device: device.filter(|d| !d.is_empty()), measured_sm_clock_hz })
    })
}

/// What a link carries of `v`: counter values quantised, nothing else changed.
fn quantised(v: &View) -> View {
    let mut q = v.clone();
    for k in &mut q.kernels {
        let mut c = Counters::default();
        for (counter, value) in k.counters.iter() {
            c.set(counter, share::quantise(value));
        }
        k.counters = c;
    }
    q
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn decode_of_encode_is_the_view_quantised(v in view()) {
        let link = share::encode(&v).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(link.shortened_names, 0);
        prop_assert!(link.fragment.starts_with("v1."));
        let back = share::decode(&link.fragment).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &quantised(&v));
        // Stable: the decoded view encodes to the very same link.
        let again = share::encode(&back).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again.fragment, link.fragment);
    }

    #[test]
    fn quantisation_is_within_two_to_the_minus_16(x in (-30.0f64..30.0).prop_map(|e| 10f64.powf(e))) {
        let q = share::quantise(x);
        prop_assert!((q - x).abs() <= x.abs() * 2f64.powi(-16), "{} → {}", x, q);
        prop_assert_eq!(share::quantise(q), q);
    }

    #[test]
    fn decode_never_panics_on_text(s in "\\PC{0,300}") {
        let _ = share::decode(&s);
    }

    #[test]
    fn decode_never_panics_on_v1_garbage(s in "[A-Za-z0-9_-]{0,600}") {
        // Random base64url is, with overwhelming likelihood, not a deflate stream + CRC.
        let link = format!("v1.{s}");
        prop_assert!(share::decode(&link).is_err());
    }

    #[test]
    fn altered_links_are_refused_or_still_valid(v in view(), at in any::<prop::sample::Index>(), c in "[A-Za-z0-9_-]", cut in any::<prop::sample::Index>()) {
        let link = share::encode(&v).map_err(|e| TestCaseError::fail(e.to_string()))?.fragment;
        let body = &link[3..];
        if body.is_empty() {
            return Ok(());
        }
        let i = at.index(body.len());
        let altered = format!("v1.{}{}{}", &body[..i], c, &body[i + 1..]);
        // Refused (base64 padding bits, deflate, CRC-32, layout), or, when the change only
        // touched the padding bits ending the deflate stream, the very same view.
        if let Ok(back) = share::decode(&altered) {
            prop_assert_eq!(Some(back), share::decode(&link).ok());
        }
        let truncated = &link[..3 + cut.index(body.len())];
        prop_assert!(share::decode(truncated).is_err());
    }
}
