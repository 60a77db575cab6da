//! Several files parsed at once (`dataset::file_read`, the app's parser worker and its second
//! parser): a list whose last files are read whole by another parser and added in the list's
//! order gives the dataset one parser gives, to the bit (kernels, sums, kept launches joined
//! across files, devices, tools, warnings), and the same error with the same file and line.

#[path = "../benches/support/big_ncu.rs"]
mod big_ncu;

use roofline_engine::dataset::file_read::{plan, second_share, FileParser, FileRead, Plan};
use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::{all_paths, nersc_run, read, sample};

/// What the second parser sends for `f`, read in chunks of `chunk` bytes as the worker reads
/// slices (stopping where it is no longer wanted), after the trip between workers: serde JSON
/// for the fields, the launch bytes apart.
fn read_elsewhere(f: &SourceFile, chunk: usize) -> Option<FileRead> {
    let mut p = FileParser::new(&f.name);
    for c in f.bytes.chunks(chunk) {
        p.push(c);
        if !p.wanted() {
            break;
        }
    }
    let sent = p.finish()?;
    let mut read: FileRead = serde_json::from_str(&serde_json::to_string(&sent).unwrap()).unwrap();
    read.launches = sent.launches.clone();
    assert_eq!(read, sent, "{}: the read does not survive the trip between workers", f.name);
    Some(read)
}

/// Reads `files` as the app's workers do: the first parser pushes the files before `from` in
/// chunks, then adds the second's read of each later file, or pushes it itself where the
/// second read none. Returns the dataset or error, and how many files the second read.
fn shared(files: &[SourceFile], from: usize, chunk: usize) -> (Result<Dataset, String>, usize) {
    let mut b = DatasetBuilder::new();
    let mut elsewhere = 0;
    let result = (|| {
        for (i, f) in files.iter().enumerate() {
            let read = if i >= from { read_elsewhere(f, chunk) } else { None };
            match read {
                Some(read) => {
                    elsewhere += 1;
                    b.add_read(&f.name, &read)?;
                }
                None => {
                    b.push_chunk(&f.name, &[])?;
                    for c in f.bytes.chunks(chunk) {
                        b.push_chunk(&f.name, c)?;
                    }
                    b.end_file()?;
                }
            }
        }
        Ok(())
    })();
    (result.and_then(|()| b.finish()).map_err(|e| e.to_string()), elsewhere)
}

fn one_parser(files: &[SourceFile]) -> Result<Dataset, String> {
    load_dataset(files).map_err(|e| e.to_string())
}

#[test]
fn every_sample_read_by_the_second_parser_is_the_file_read_here() {
    // The Nsight Compute pages and reports are read elsewhere; the formats read whole are
    // left to the first parser.
    let mut elsewhere = Vec::new();
    for path in all_paths() {
        let f = read(&path);
        for chunk in [1 << 20, 4096, 777] {
            let (got, n) = shared(std::slice::from_ref(&f), 0, chunk);
            assert!(got == one_parser(std::slice::from_ref(&f)), "{path} in chunks of {chunk}: {got:?}");
            if chunk == 777 && n == 1 {
                elsewhere.push(f.name.clone());
            }
        }
    }
    let ncu = |n: &String| n.starts_with("DeepLearningProfiling__") || n.ends_with(".ncu.csv") || n.ends_with("copy_blocked.csv");
    let reports = |n: &String| n.ends_with(".ncu-rep") || n.ends_with("report");
    assert!(elsewhere.iter().all(|n| ncu(n) || reports(n)), "{elsewhere:?}");
    // 5 NERSC files, the raw page, the nsightful details page; 6 reports (the Twisty one has
    // the old extension). The failed run's log and the console output are read whole.
    assert_eq!(elsewhere.len(), 13, "{elsewhere:?}");
}

#[test]
fn a_run_split_over_files_joins_the_same_whoever_reads_each_file() {
    // The NERSC recipe: five one-metric files of one run, launches joined across files by id
    // and kernel name. Every split point, the second parser reading the files after it.
    let run = nersc_run();
    let want = one_parser(&run);
    let ds = want.as_ref().unwrap();
    assert!(ds.launches.len() > 100 && ds.kernels.len() > 10);
    for from in 0..=run.len() {
        let (got, n) = shared(&run, from, 64 << 10);
        assert_eq!(n, run.len() - from);
        assert!(got == want, "second parser from file {from} differs");
    }
    // The files in another order join the same way as one parser joins them in that order.
    let mut reversed = run.clone();
    reversed.reverse();
    assert!(shared(&reversed, 2, 1 << 20).0 == one_parser(&reversed));
}

#[test]
fn formats_read_whole_stay_with_the_first_parser_in_the_lists_order() {
    // nvprof metrics + its GPU summary/trace (a summary and a trace of one run count once,
    // which depends on the files before), a report, a details page, a rocprof-compute run with
    // its machine: the second parser asked for all of them from the second file on.
    let files = vec![
        sample("nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv"),
        sample("ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep"),
        sample("nvprof/thrust2D__rodinia_srad_srad_non_shared.profile"),
        sample("nvprof/thrust2D__rodinia_srad_srad_non_shared.profile.time"),
        sample("ncu/nsightful__tests_copy_blocked.csv"),
        sample("rocprof/omniperf__tests_workloads_vcopy_MI200_pmc_perf.csv"),
        sample("rocprof/omniperf__tests_workloads_vcopy_MI200_roofline.csv"),
    ];
    let want = one_parser(&files);
    assert!(want.as_ref().is_ok_and(|ds| ds.machine.is_some() && ds.files.len() == 7), "{want:?}");
    let (got, n) = shared(&files, 1, 4096);
    assert_eq!(n, 2, "the report and the details page");
    assert!(got == want, "{got:?}");
}

#[test]
fn errors_and_warnings_name_the_same_file_and_line() {
    let raw = String::from_utf8(sample("ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv").bytes).unwrap();
    let ok = SourceFile { name: "ok.csv".into(), bytes: raw.clone().into_bytes() };
    // Invalid UTF-8 in the 9th row: the error names that line.
    let mut bad = raw.clone().into_bytes();
    let row9 = raw.match_indices('\n').nth(12).unwrap().0 + 3;
    bad.splice(row9..row9, [0xff, 0xfe]);
    let bad = SourceFile { name: "bad.csv".into(), bytes: bad };
    // A file cut in the middle of its last row: a warning naming that line.
    let cut = SourceFile { name: "cut.csv".into(), bytes: raw.as_bytes()[..raw.len() - 4000].to_vec() };
    for files in [vec![ok.clone(), bad.clone()], vec![ok.clone(), cut.clone()], vec![bad.clone(), ok.clone()], vec![cut.clone(), bad.clone()]] {
        let want = one_parser(&files);
        for chunk in [1 << 20, 1000] {
            assert_eq!(shared(&files, 1, chunk).0, want, "{:?}", files.iter().map(|f| &f.name).collect::<Vec<_>>());
        }
    }
    let e = shared(&[ok.clone(), bad], 1, 1000).0.unwrap_err();
    assert!(e.starts_with("bad.csv, line 14:"), "{e}");
    let ds = shared(&[ok, cut], 1, 1000).0.unwrap();
    let w = ds.warnings.iter().find(|w| w.file == "cut.csv").expect("the cut row's warning");
    assert_eq!(w.line, Some(raw[..raw.len() - 4000].lines().count()), "{w:?}");
}

#[test]
fn large_pages_keep_the_launch_cap_across_files() {
    // Three generated raw pages of ~3,800 launches each (≈ 2.9 KB a launch): the 10,000 kept
    // launch records are filled in the third file, the rest counted as omitted, whoever read it.
    let sample = String::from_utf8(sample("ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv").bytes).unwrap();
    let page = |name: &str| SourceFile { name: name.into(), bytes: big_ncu::big_ncu(&sample, 11_000_000) };
    let files = [page("a.csv"), page("b.csv"), page("c.csv")];
    let want = one_parser(&files);
    let ds = want.as_ref().unwrap();
    assert!(ds.launches_omitted > 0, "{}", ds.launches_omitted);
    for from in [1, 2] {
        let (got, n) = shared(&files, from, 4 << 20);
        assert_eq!(n, 3 - from);
        assert!(got == want, "from {from}");
    }
}

#[test]
fn the_second_parser_takes_the_last_files_for_the_most_even_split() {
    const MAX: u64 = 512;
    // Fewer than two files: nothing to share.
    assert_eq!(second_share(&[], MAX), 0);
    assert_eq!(second_share(&[100], MAX), 1);
    // Two equal files: one each.
    assert_eq!(second_share(&[10, 10], MAX), 1);
    // 30 | 10 10 10: 30 each.
    assert_eq!(second_share(&[30, 10, 10, 10], MAX), 1);
    // 10 10 10 | 30.
    assert_eq!(second_share(&[10, 10, 10, 30], MAX), 3);
    // 1 1 | 100 (100 at the larger side whatever the split; the earliest such split wins
    // only if strictly better: 1 | 1 100 leaves 101).
    assert_eq!(second_share(&[1, 1, 100], MAX), 2);
    // 40 | 1: the second takes the small file (no split is better than 40).
    assert_eq!(second_share(&[40, 1], MAX), 1);
    // The second's share held to 512 bytes: 300 300 | 300 (not 300 | 300 300, 600 bytes).
    assert_eq!(second_share(&[300, 300, 300], MAX), 2);
    assert_eq!(second_share(&[300, 300, 300, 300], MAX), 3);
    // No split fits: the first reads everything.
    assert_eq!(second_share(&[10, 600], MAX), 2);
}

#[test]
fn a_list_is_shared_or_its_largest_file_split_whichever_leaves_less_to_the_busier_parser() {
    // Sizes in MiB-like units: split range 16..=512, sharing from 4 in all.
    let p = |sizes: &[u64]| plan(sizes, 16..=512, 4);
    // One file: split when in range, else read alone.
    assert_eq!(p(&[50]), Plan::Split(0));
    assert_eq!(p(&[10]), Plan::One);
    assert_eq!(p(&[600]), Plan::One);
    // Five alike files: 20 20 | 20 20 20 leaves 60 to the busier; splitting one of them
    // leaves 100 − 10 = 90. Share.
    assert_eq!(p(&[20, 20, 20, 20, 20]), Plan::Share(2));
    // A 50 MB page and its 1 MB summary: sharing leaves 50; splitting the page 51 − 25 = 26.
    assert_eq!(p(&[50, 1]), Plan::Split(0));
    assert_eq!(p(&[1, 50]), Plan::Split(1));
    // 30 and 20: sharing leaves 30, splitting the 30 leaves 50 − 15 = 35. Share.
    assert_eq!(p(&[30, 20]), Plan::Share(1));
    // Small lists are read by one parser (3 in all, under 4), even as two files.
    assert_eq!(p(&[1, 2]), Plan::One);
    // A file too large to split beside small ones: shared (the large file stays with the
    // first parser: 600 | 1 1).
    assert_eq!(p(&[600, 1, 1]), Plan::Share(1));
}
