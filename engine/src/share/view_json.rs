//! A [`View`] to and from a `.roofline.json` document ([`crate::json`]), field by field.
//!
//! Writing gives exactly what serde_json's `to_string_pretty` gave for the document (the
//! version marker, then the view's fields in declaration order); `share_file` tests compare.
//!
//! The rules are the ones the file format promises (docs/SHARING.md) and that serde's derived
//! reader applied before: every view setting may be missing (its default is used) and unknown
//! fields or counter names are ignored, so a newer build's file still opens; `null` is
//! "none" for optional settings and "not measured" for counters; a kernel needs its name,
//! launch count and counters, and a custom machine its id, name, source and ceilings. A value
//! of the wrong type is an error naming the field.

use super::view::{compute_id, level_id, SharedKernel, View};
use crate::chart::Zoom;
use crate::domain::DataType;
use crate::domain::counters::{Counter, Counters};
use crate::json::{Json, Writer};
use crate::report_json;
use crate::model::{Ceiling, ComputeKind, Issue, Level, Link, Machine, MemoryLevel, PeakSet, TransactionSizes};

type Read<T> = Result<T, String>;

/// The document: `{"roofline_view": version, …the view's fields}`, pretty-printed.
pub fn write(view: &View, version: &str) -> String {
    let mut w = Writer::new();
    w.begin_object();
    w.str_field(super::file::MARKER, version);
    w.str_field("machine_id", &view.machine_id);
    w.key("custom_machine");
    match &view.custom_machine {
        Some(m) => report_json::machine(&mut w, m),
        None => w.null(),
    }
    w.str_field("mode", &view.mode);
    w.key("compute");
    w.opt_str(view.compute.as_deref());
    w.key("hidden_levels");
    w.begin_array();
    for l in &view.hidden_levels {
        w.item();
        w.string(l);
    }
    w.end_array();
    w.key("zoom");
    match &view.zoom {
        Some(z) => {
            w.begin_object();
            for (key, pair) in [("x", z.x), ("y", z.y)] {
                w.key(key);
                w.begin_array();
                for v in pair {
                    w.item();
                    w.f64(v);
                }
                w.end_array();
            }
            w.end_object();
        }
        None => w.null(),
    }
    w.str_field("filter", &view.filter);
    w.key("top_n");
    match view.top_n {
        Some(n) => w.u64(n.into()),
        None => w.null(),
    }
    w.key("selected");
    match view.selected {
        Some(i) => w.u64(i as u64),
        None => w.null(),
    }
    w.key("theme");
    w.opt_str(view.theme.as_deref());
    w.u64_field("word_bytes", view.word_bytes.into());
    w.key("kernels");
    report_json::list(&mut w, &view.kernels, |w, k| {
        w.begin_object();
        w.str_field("name", &k.name);
        w.u64_field("launches", k.launches);
        w.key("counters");
        report_json::counters(w, &k.counters);
        w.end_object();
    });
    w.end_object();
    w.finish()
}

/// The view in a document's members (the version marker among them is ignored here).
pub fn view(doc: &Json) -> Read<View> {
    let mut v = View::default();
    for (key, value) in members(doc, "the view")? {
        let k = key.as_str();
        match k {
            "machine_id" => v.machine_id = string(value, k)?,
            "custom_machine" => v.custom_machine = optional(value, k, machine)?,
            "mode" => v.mode = string(value, k)?,
            "compute" => v.compute = optional(value, k, string)?,
            "hidden_levels" => v.hidden_levels = list(value, k, string)?,
            "zoom" => v.zoom = optional(value, k, zoom)?,
            "filter" => v.filter = string(value, k)?,
            "top_n" => v.top_n = optional(value, k, |x, k| whole(x, k, u32::MAX.into()))?.map(|n| n as u32),
            "selected" => v.selected = optional(value, k, |x, k| whole(x, k, usize::MAX as u64))?.map(|n| n as usize),
            "theme" => v.theme = optional(value, k, string)?,
            "word_bytes" => v.word_bytes = whole(value, k, u8::MAX.into())? as u8,
            "kernels" => v.kernels = list(value, k, kernel)?,
            _ => {}
        }
    }
    Ok(v)
}

fn kernel(v: &Json, _: &str) -> Read<SharedKernel> {
    Ok(SharedKernel {
        name: string(required(v, "name", "a kernel")?, "name")?,
        launches: whole(required(v, "launches", "a kernel")?, "launches", u64::MAX)?,
        counters: counters(required(v, "counters", "a kernel")?)?,
    })
}

fn counters(v: &Json) -> Read<Counters> {
    let mut out = Counters::default();
    for (key, value) in members(v, "counters")? {
        if let (Some(c), false) = (Counter::from_key(key), *value == Json::Null) {
            out.set(c, number(value, key)?);
        }
    }
    Ok(out)
}

fn zoom(v: &Json, _: &str) -> Read<Zoom> {
    Ok(Zoom { x: pair(required(v, "x", "the zoom")?, "zoom.x")?, y: pair(required(v, "y", "the zoom")?, "zoom.y")? })
}

fn pair(v: &Json, field: &str) -> Read<[f64; 2]> {
    match v.as_array() {
        Some([a, b]) => Ok([number(a, field)?, number(b, field)?]),
        _ => Err(format!("`{field}`: expected two numbers, found {}", v.kind())),
    }
}

fn machine(v: &Json, _: &str) -> Read<Machine> {
    let m = "the machine";
    Ok(Machine {
        id: string(required(v, "id", m)?, "id")?,
        name: string(required(v, "name", m)?, "name")?,
        source: string(required(v, "source", m)?, "source")?,
        compute: list(required(v, "compute", m)?, "compute", ceiling)?,
        memory: list(required(v, "memory", m)?, "memory", memory_level)?,
        flops_per_tensor_inst: optional_field(v, "flops_per_tensor_inst", number)?,
        clock_hz: optional_field(v, "clock_hz", number)?,
        base_clock_hz: optional_field(v, "base_clock_hz", number)?,
        boost_clock_hz: optional_field(v, "boost_clock_hz", number)?,
        issue: optional_field(v, "issue", issue)?,
        transaction_bytes: optional_field(v, "transaction_bytes", transaction_sizes)?,
        theoretical: optional_field(v, "theoretical", peak_set)?,
        empirical: optional_field(v, "empirical", peak_set)?,
        links: v.get("links").map_or(Ok(Vec::new()), |l| list(l, "links", link))?,
        vendor: optional_field(v, "vendor", |x, f| {
            let s = string(x, f)?;
            [crate::domain::Vendor::Nvidia, crate::domain::Vendor::Amd, crate::domain::Vendor::Intel]
                .into_iter()
                .find(|v| format!("{v:?}").eq_ignore_ascii_case(&s))
                .ok_or_else(|| format!("`vendor`: unknown vendor {s:?}"))
        })?,
        arch: optional_field(v, "arch", string)?,
        generation: optional_field(v, "generation", string)?,
        sm_count: optional_field(v, "sm_count", |x, f| number(x, f).map(|n| n as u32))?,
        memory_bytes: optional_field(v, "memory_bytes", number)?,
        l2_bytes: optional_field(v, "l2_bytes", number)?,
    })
}

fn ceiling(v: &Json, _: &str) -> Read<Ceiling> {
    let kind = string(required(v, "kind", "a compute ceiling")?, "kind")?;
    Ok(Ceiling {
        name: string(required(v, "name", "a compute ceiling")?, "name")?,
        kind: [ComputeKind::Fp64, ComputeKind::Fp32, ComputeKind::Fp16, ComputeKind::Tensor, ComputeKind::Int]
            .into_iter()
            .find(|&k| compute_id(k) == kind)
            .ok_or_else(|| format!("`kind`: unknown compute kind {kind:?}"))?,
        data_type: optional_field(v, "data_type", |d, _| string(d, "data_type").and_then(|s| DataType::from_id(&s).ok_or_else(|| format!("`data_type`: unknown data type {s:?}"))))?,
        flops_per_s: number(required(v, "flops_per_s", "a compute ceiling")?, "flops_per_s")?,
    })
}

fn memory_level(v: &Json, _: &str) -> Read<MemoryLevel> {
    let level = string(required(v, "level", "a memory level")?, "level")?;
    Ok(MemoryLevel {
        name: string(required(v, "name", "a memory level")?, "name")?,
        level: Level::ALL.into_iter().find(|&l| level_id(l) == level).ok_or_else(|| format!("`level`: unknown memory level {level:?}"))?,
        bytes_per_s: number(required(v, "bytes_per_s", "a memory level")?, "bytes_per_s")?,
    })
}

fn issue(v: &Json, _: &str) -> Read<Issue> {
    let unit = |key: &str| whole(required(v, key, "the issue model")?, key, u32::MAX.into()).map(|n| n as u32);
    Ok(Issue {
        compute_units: unit("compute_units")?,
        schedulers_per_unit: unit("schedulers_per_unit")?,
        inst_per_cycle_per_scheduler: number(required(v, "inst_per_cycle_per_scheduler", "the issue model")?, "inst_per_cycle_per_scheduler")?,
        threads_per_warp: unit("threads_per_warp")?,
    })
}

fn transaction_sizes(v: &Json, _: &str) -> Read<TransactionSizes> {
    Ok(TransactionSizes {
        sector_bytes: number(required(v, "sector_bytes", "the transaction sizes")?, "sector_bytes")?,
        shared_bytes: number(required(v, "shared_bytes", "the transaction sizes")?, "shared_bytes")?,
    })
}

fn peak_set(v: &Json, _: &str) -> Read<PeakSet> {
    Ok(PeakSet {
        source: string(required(v, "source", "a set of peaks")?, "source")?,
        compute: list(required(v, "compute", "a set of peaks")?, "compute", ceiling)?,
        memory: list(required(v, "memory", "a set of peaks")?, "memory", memory_level)?,
    })
}

fn link(v: &Json, _: &str) -> Read<Link> {
    Ok(Link {
        name: string(required(v, "name", "a link")?, "name")?,
        bytes_per_s: number(required(v, "bytes_per_s", "a link")?, "bytes_per_s")?,
    })
}

// Typed values. `field` names the value in messages.

fn wrong(expected: &str, v: &Json, field: &str) -> String {
    format!("`{field}`: expected {expected}, found {}", v.kind())
}

fn members<'a>(v: &'a Json, field: &str) -> Read<&'a [(String, Json)]> {
    match v {
        Json::Object(members) => Ok(members),
        _ => Err(wrong("an object", v, field)),
    }
}

fn required<'a>(v: &'a Json, key: &str, within: &str) -> Read<&'a Json> {
    members(v, within)?;
    v.get(key).ok_or_else(|| format!("{within} has no `{key}`"))
}

fn string(v: &Json, field: &str) -> Read<String> {
    v.as_str().map(str::to_string).ok_or_else(|| wrong("a string", v, field))
}

fn number(v: &Json, field: &str) -> Read<f64> {
    v.as_f64().ok_or_else(|| wrong("a number", v, field))
}

/// A whole number from 0 to `max`.
fn whole(v: &Json, field: &str, max: u64) -> Read<u64> {
    v.as_u64().filter(|&n| n <= max).ok_or_else(|| match v {
        Json::Number(text) => format!("`{field}`: expected a whole number from 0 to {max}, found {text}"),
        _ => wrong("a whole number", v, field),
    })
}

/// `null` is `None`.
fn optional<T>(v: &Json, field: &str, read: impl FnOnce(&Json, &str) -> Read<T>) -> Read<Option<T>> {
    match v {
        Json::Null => Ok(None),
        _ => read(v, field).map(Some),
    }
}

/// A missing member or `null` is `None`.
fn optional_field<T>(v: &Json, key: &str, read: impl FnOnce(&Json, &str) -> Read<T>) -> Read<Option<T>> {
    v.get(key).map_or(Ok(None), |x| optional(x, key, read))
}

/// (A loop rather than `collect::<Result<Vec<_>, _>>()`, whose adapter is larger in the wasm.)
fn list<T>(v: &Json, field: &str, read: impl Fn(&Json, &str) -> Read<T>) -> Read<Vec<T>> {
    let items = v.as_array().ok_or_else(|| wrong("an array", v, field))?;
    let mut out = Vec::with_capacity(items.len());
    for x in items {
        out.push(read(x, field)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;
    use crate::model::catalogue;

    fn read(text: &str) -> Read<View> {
        view(&parse(text).map_err(|e| e.to_string())?)
    }

    #[test]
    fn missing_settings_take_their_defaults_and_unknown_fields_are_ignored() {
        let v = read(r#"{"roofline_view": "v1", "kernels": [{"name": "k", "launches": 2, "counters": {"time_s": 1.5, "bytes_l2": null, "fp8_flops": 3}}], "new": [1]}"#).unwrap();
        let expected = View { kernels: vec![SharedKernel { name: "k".into(), launches: 2, counters: Counters::from_pairs(&[(Counter::TimeS, 1.5)]) }], ..View::default() };
        assert_eq!(v, expected);
        let v = read(r#"{"compute": null, "zoom": {"x": [0.5, 2], "y": [1e9, 1e12]}, "top_n": 7, "selected": 0, "theme": "dark", "word_bytes": 4}"#).unwrap();
        assert_eq!((v.compute, v.zoom, v.top_n, v.selected, v.theme.as_deref(), v.word_bytes), (None, Some(Zoom { x: [0.5, 2.0], y: [1e9, 1e12] }), Some(7), Some(0), Some("dark"), 4));
    }

    #[test]
    fn a_whole_machine_reads_back_as_it_was_written() {
        // Every catalogue machine has every optional part somewhere (issue, links, peak sets).
        for m in catalogue::all() {
            let text = format!("{{\"machine_id\": \"x\", \"custom_machine\": {}}}", serde_json::to_string(&m).unwrap());
            assert_eq!(read(&text).unwrap().custom_machine, Some(m));
        }
        let minimal = r#"{"custom_machine": {"id": "m", "name": "M", "source": "s", "compute": [{"name": "FP64", "kind": "fp64", "flops_per_s": 1e12}], "memory": []}}"#;
        let m = read(minimal).unwrap().custom_machine.unwrap();
        assert_eq!((m.compute[0].kind, m.links.len(), m.issue), (ComputeKind::Fp64, 0, None));
    }

    #[test]
    fn writes_what_serde_wrote() {
        #[derive(serde::Serialize)]
        struct Document<'a> {
            roofline_view: &'a str,
            #[serde(flatten)]
            view: &'a View,
        }
        let kernel = |name: &str, pairs: &[(Counter, f64)]| SharedKernel { name: name.into(), launches: 3, counters: Counters::from_pairs(pairs) };
        let views = [
            View::default(),
            View {
                machine_id: "x".into(),
                custom_machine: Some(catalogue::v100().at_clock(1312e6)),
                compute: Some("fp64".into()),
                hidden_levels: vec!["l1".into(), "dram".into()],
                zoom: Some(Zoom { x: [0.01, 1e3], y: [1e9, 1.5e13] }),
                filter: "gemm|\"quoted\"".into(),
                top_n: Some(10),
                selected: Some(0),
                theme: Some("dark".into()),
                word_bytes: 4,
                kernels: vec![kernel("k ← α", &[(Counter::TimeS, 0.010582), (Counter::DramBytes, 8e9), (Counter::Fp64Flops, f64::NAN)]), kernel("empty", &[])],
                ..View::default()
            },
        ];
        for v in views {
            let serde = serde_json::to_string_pretty(&Document { roofline_view: "v1", view: &v }).unwrap_or_default();
            assert_eq!(write(&v, "v1"), serde);
        }
    }

    #[test]
    fn wrong_types_name_the_field() {
        let e = |text: &str| read(text).unwrap_err();
        assert_eq!(e(r#"{"kernels": 3}"#), "`kernels`: expected an array, found a number");
        assert_eq!(e(r#"{"mode": null}"#), "`mode`: expected a string, found null");
        assert_eq!(e(r#"{"word_bytes": 256}"#), "`word_bytes`: expected a whole number from 0 to 255, found 256");
        assert_eq!(e(r#"{"kernels": [{"name": "k", "launches": 1.5, "counters": {}}]}"#), "`launches`: expected a whole number from 0 to 18446744073709551615, found 1.5");
        assert_eq!(e(r#"{"kernels": [{"name": "k", "launches": 1}]}"#), "a kernel has no `counters`");
        assert_eq!(e(r#"{"kernels": [{"name": "k", "launches": 1, "counters": {"time_s": "x"}}]}"#), "`time_s`: expected a number, found a string");
        assert_eq!(e(r#"{"zoom": {"x": [1], "y": [1, 2]}}"#), "`zoom.x`: expected two numbers, found an array");
        assert_eq!(e(r#"{"custom_machine": {"id": "m"}}"#), "the machine has no `name`");
        assert_eq!(e(r#"{"custom_machine": {"id": "m", "name": "M", "source": "s", "compute": [{"name": "x", "kind": "fp4", "flops_per_s": 1}], "memory": []}}"#), "`kind`: unknown compute kind \"fp4\"");
        assert_eq!(e("[]"), "`the view`: expected an object, found an array");
    }
}
