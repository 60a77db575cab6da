//! A file read in two parts by two parsers (`dataset::part`, the app's parser worker and its
//! second worker) gives the dataset reading it in one go gives: the same kernels, sums (added
//! in the same order, so equal to the bit), kept launches, devices, warnings and errors with
//! the same line numbers, wherever the file is cut; and where the cut falls inside a quoted
//! field, the part is refused and the rest read by the first parser.

#[path = "../benches/support/big_ncu.rs"]
mod big_ncu;

use roofline_engine::dataset::part::{start_in, PartParser, PartRead};
use roofline_engine::dataset::{DatasetBuilder, MAX_KEPT_LAUNCHES};
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::{read, sample, SAMPLES};
const RAW: &str = "ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv";

/// How a file read in parts went: the dataset or the error (as the builder gives it), and
/// whether the second part was taken over.
struct Outcome {
    result: Result<Dataset, String>,
    taken: bool,
}

/// Reads `f` as the app's workers do: the second parser gets the first `head` bytes and the
/// file from `cut` on (in chunks of `chunk`), the first reads up to where the part starts
/// and takes it over; the part crosses as serde JSON and its launch bytes.
fn in_parts(f: &SourceFile, cut: usize, head: usize, chunk: usize) -> Outcome {
    let len = f.bytes.len();
    let Some(mut p) = PartParser::new(&f.name, &f.bytes[..head.min(len)], cut as u64) else {
        return Outcome { result: in_memory(f), taken: false };
    };
    for c in f.bytes[cut..].chunks(chunk) {
        p.push(c);
    }
    let sent = p.finish();
    let mut part: PartRead = serde_json::from_str(&serde_json::to_string(&sent).unwrap()).unwrap();
    part.launches = sent.launches.clone();
    assert_eq!(part, sent, "{}: the part does not survive the trip between workers", f.name);
    let start = part.start.map_or(len, |s| s as usize);
    let mut b = DatasetBuilder::new();
    let mut taken = false;
    let result = (|| {
        b.push_chunk(&f.name, &[])?;
        for c in f.bytes[..start].chunks(chunk) {
            b.push_chunk(&f.name, c)?;
        }
        taken = part.start.is_some() && b.take_part(&f.name, &part)?;
        if !taken {
            for c in f.bytes[start..].chunks(chunk) {
                b.push_chunk(&f.name, c)?;
            }
        }
        b.end_file()
    })();
    let result = result.and_then(|()| b.finish()).map_err(|e| e.to_string());
    Outcome { result, taken }
}

fn in_memory(f: &SourceFile) -> Result<Dataset, String> {
    load_dataset(std::slice::from_ref(f)).map_err(|e| e.to_string())
}

fn raw_sample() -> String {
    String::from_utf8(read(&format!("{SAMPLES}/{RAW}")).bytes).unwrap_or_default()
}

/// Asserts that `f` read in parts cut at each fraction equals `f` read whole, and returns how
/// many of the cuts had their part taken over.
fn assert_same(f: &SourceFile, fractions: &[f64], head: usize, chunk: usize) -> usize {
    let want = in_memory(f);
    let mut taken = 0;
    for &frac in fractions {
        let cut = (f.bytes.len() as f64 * frac) as usize;
        let got = in_parts(f, cut, head, chunk);
        assert!(got.result == want, "{}: cut at {cut} ({frac}) differs from the whole file:\n{:?}\nvs\n{want:?}", f.name, got.result);
        taken += usize::from(got.taken);
    }
    taken
}

#[test]
fn a_raw_page_read_in_two_parts_is_the_whole_file() {
    let big = SourceFile { name: "big.csv".into(), bytes: big_ncu::big_ncu(&raw_sample(), 1_500_000) };
    let ds = in_memory(&big).unwrap();
    assert_eq!((ds.files[0].format, ds.kernels.len() > 1, ds.launches.len() > 400), ("ncu-raw", true, true));
    // Cut anywhere (in a quoted name, in a number, just before a line end), small and large chunks.
    let fractions = [0.11, 0.3, 0.5, 0.5001, 0.77, 0.999];
    assert_eq!(assert_same(&big, &fractions, 1 << 16, 4096), fractions.len());
    assert_eq!(assert_same(&big, &[0.5], 1 << 20, 1 << 20), 1);
    // The launch cap and the join across the cut: more launches than are kept.
    let sample = raw_sample();
    let page = big_ncu::split_raw_page(&sample).unwrap();
    let row_bytes: usize = page.rows.iter().map(|r| r.len() + 1).sum::<usize>() / page.rows.len();
    let capped = SourceFile { name: "capped.csv".into(), bytes: big_ncu::big_ncu(&sample, ((MAX_KEPT_LAUNCHES + 300) * row_bytes) as u64) };
    for frac in [0.2, 0.5, 0.995] {
        let got = in_parts(&capped, (capped.bytes.len() as f64 * frac) as usize, 1 << 16, 1 << 20);
        let ds = got.result.unwrap();
        assert!(got.taken);
        assert_eq!((ds.launches.len(), ds.launches_omitted > 0), (MAX_KEPT_LAUNCHES, true));
        assert!(Ok(ds) == in_memory(&capped), "capped file cut at {frac}");
    }
}

#[test]
fn crlf_bom_no_units_row_and_a_second_device() {
    let big = String::from_utf8(big_ncu::big_ncu(&raw_sample(), 400_000)).unwrap();
    let crlf = SourceFile { name: "crlf.csv".into(), bytes: big.replace('\n', "\r\n").into_bytes() };
    let bom = SourceFile { name: "bom.csv".into(), bytes: [b"\xEF\xBB\xBF".as_slice(), big.as_bytes()].concat() };
    // Nsight Compute before 2019 wrote no units row: the part makes the plan without one too.
    let lines: Vec<&str> = big.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("\"ID\",")).unwrap();
    let no_units = SourceFile { name: "no-units.csv".into(), bytes: lines.iter().enumerate().filter(|(i, _)| *i != header + 1).map(|(_, l)| format!("{l}\n")).collect::<String>().into_bytes() };
    // A second GPU in the second half only, and the first again after it: its index in the
    // dataset is the one reading in one go gives.
    let half = big.len() / 2;
    let tail = big[half..].replacen("\"NVIDIA B200\"", "\"NVIDIA H100 80GB HBM3\"", 7);
    let two_gpus = SourceFile { name: "two.csv".into(), bytes: format!("{}{tail}", &big[..half]).into_bytes() };
    let ds = in_memory(&two_gpus).unwrap();
    assert_eq!(ds.devices.runs.len(), 2, "{:?}", ds.devices.runs);
    for f in [crlf, bom, no_units, two_gpus] {
        assert!(in_memory(&f).is_ok(), "{}", f.name);
        assert_eq!(assert_same(&f, &[0.3, 0.6, 0.9], 1 << 16, 3000), 3, "{}: a part was not taken", f.name);
    }
}

#[test]
fn a_line_end_inside_quotes_at_the_cut_is_refused_and_read_whole() {
    // Kernel names with a line end inside their quotes: the first line end after a cut just
    // before one is not a record's end, so the part starts mid-record and cannot be taken.
    let big = String::from_utf8(big_ncu::big_ncu(&raw_sample(), 400_000)).unwrap();
    let text = big.replace("void flash_fwd_splitkv_kernel<", "void flash_fwd_splitkv_kernel\n<");
    let f = SourceFile { name: "nl.csv".into(), bytes: text.into_bytes() };
    let at = f.bytes.len() / 2 + text_find(&f.bytes[f.bytes.len() / 2..], b"void flash_fwd_splitkv_kernel\n");
    let want = in_memory(&f);
    assert!(want.is_ok());
    let got = in_parts(&f, at, 1 << 16, 4096);
    assert!(!got.taken, "a part starting inside a quoted name was taken");
    assert!(got.result == want);
    // Elsewhere the same file's parts are taken.
    assert!(assert_same(&f, &[0.25, 0.75], 1 << 16, 4096) >= 1);
}

fn text_find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).unwrap()
}

#[test]
fn errors_and_warnings_in_the_second_part_name_the_files_line() {
    let big = String::from_utf8(big_ncu::big_ncu(&raw_sample(), 400_000)).unwrap();
    let lines: Vec<&str> = big.lines().collect();
    let n = lines.len();
    // A bad launch number at 80 % of the file, after a cut at half: the error's line is the file's.
    let bad_line = n * 8 / 10;
    let bad: String = lines.iter().enumerate().map(|(i, l)| if i == bad_line { format!("\"x\"{}\n", &l[l.find(',').unwrap()..]) } else { format!("{l}\n") }).collect();
    let bad = SourceFile { name: "bad.csv".into(), bytes: bad.into_bytes() };
    let want = in_memory(&bad);
    assert!(want.as_ref().is_err_and(|e| e.contains(&format!("line {}", bad_line + 1))), "{want:?}");
    assert_same(&bad, &[0.5], 1 << 16, 4096);
    // Not UTF-8 in the second part.
    let mut latin1 = big.clone().into_bytes();
    let at = latin1.len() * 7 / 10;
    latin1[at] = 0xE9;
    let latin1 = SourceFile { name: "l.csv".into(), bytes: latin1 };
    assert!(in_memory(&latin1).is_err());
    assert_same(&latin1, &[0.5], 1 << 16, 4096);
    // A file cut in the middle of its last row warns with the line of that row.
    let cut_short = SourceFile { name: "cut.csv".into(), bytes: big.as_bytes()[..big.len() - 1234].to_vec() };
    let ds = in_memory(&cut_short).unwrap();
    assert!(ds.warnings.iter().any(|w| w.message.contains("cut short") && w.line == Some(n)), "{:?}", ds.warnings);
    assert_eq!(assert_same(&cut_short, &[0.5, 0.9], 1 << 16, 4096), 2);
}

#[test]
fn a_head_without_the_header_or_another_format_is_not_split() {
    let big = big_ncu::big_ncu(&raw_sample(), 400_000);
    // The head must hold the header and the units row.
    assert!(PartParser::new("big.csv", &big[..2000], 200_000).is_none());
    // The part must start after the head.
    assert!(PartParser::new("big.csv", &big[..100_000], 1000).is_none());
    assert!(PartParser::new("big.csv", &big[..100_000], 200_000).is_some());
    // The details page's launches span rows: never split.
    let details = read(&format!("{SAMPLES}/ncu/nsightful__tests_copy_blocked.csv"));
    assert!(PartParser::new(&details.name, &details.bytes, details.bytes.len() as u64 / 2).is_none());
}

#[test]
fn the_part_starts_after_the_first_line_end_at_or_after_the_cut() {
    // Bytes 100.. of a file: "ab\ncd\nef".
    let bytes = b"ab\ncd\nef";
    assert_eq!(start_in(100, 100, bytes), Some(3)); // the line end at 102
    assert_eq!(start_in(100, 102, bytes), Some(3)); // a line end at the cut itself
    assert_eq!(start_in(100, 103, bytes), Some(6)); // the next one, at 105
    assert_eq!(start_in(100, 106, bytes), None); // none after 105 in these bytes
    assert_eq!(start_in(100, 50, bytes), Some(3)); // a cut before the bytes: from their start
    assert_eq!(start_in(100, 200, bytes), None); // a cut past them
}

#[test]
fn the_largest_file_of_a_list_read_in_parts_after_the_others() {
    // The worker splits a list's largest file when that leaves less to the busier parser
    // (`file_read::plan`: a page and its small companions); the files before it are in the
    // builder already, and the dataset is the list's read in one go.
    let big = SourceFile { name: "big.csv".into(), bytes: big_ncu::big_ncu(&raw_sample(), 1_500_000) };
    let list = [sample("ncu/nsightful__tests_copy_blocked.csv"), big.clone(), sample("nvprof/magus__apps_rodinia30_lavaMD_metrics.csv")];
    let cut = big.bytes.len() / 2;
    let mut p = PartParser::new(&big.name, &big.bytes[..1 << 16], cut as u64).unwrap();
    for c in big.bytes[cut..].chunks(1 << 16) {
        p.push(c);
    }
    let part = p.finish();
    let start = part.start.unwrap() as usize;
    let mut b = DatasetBuilder::new();
    b.add_file(&list[0]).unwrap();
    for c in big.bytes[..start].chunks(1 << 16) {
        b.push_chunk(&big.name, c).unwrap();
    }
    assert!(b.take_part(&big.name, &part).unwrap(), "the part was taken");
    b.end_file().unwrap();
    b.add_file(&list[2]).unwrap();
    assert!(b.finish() == load_dataset(&list));
}
