//! A bad file never takes the others down (issue 41): `DatasetBuilder::keep_going`, as the
//! app's parser worker builds, leaves out each file it cannot read (not a profiler format,
//! invalid bytes mid-way, in whichever parser read it) and gives the dataset the other files
//! give, to the bit (kernels, sums, kept launches joined across files, devices, warnings),
//! with a warning first naming each file left out and why. Only a list of which no file
//! could be read fails, its error naming every file.

use roofline_engine::dataset::file_read::FileParser;
use roofline_engine::dataset::part::PartParser;
use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::error::ImportError;
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::{nersc_run, sample};

const RAW: &str = "ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv";

/// Not a profiler format: a few lines of prose and bytes no text has.
fn garbage(name: &str) -> SourceFile {
    let mut bytes = b"these are my notes\nnot,a,profile\n1,2,3\n".to_vec();
    bytes.extend_from_slice(&[0x00, 0x9f, 0x92, 0x96, 0xff]);
    SourceFile { name: name.into(), bytes }
}

/// `f` with two bytes that are not UTF-8 inserted in the first cell of its row at 90 % of
/// its lines (after most of its launches were read), and the line that names.
fn broken_late(f: &SourceFile) -> (SourceFile, usize) {
    let text = std::str::from_utf8(&f.bytes).unwrap();
    let ends: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
    let row = ends.len() * 9 / 10;
    let at = ends[row] + 2;
    let mut bytes = f.bytes.clone();
    bytes.splice(at..at, [0xff, 0xfe]);
    (SourceFile { name: format!("broken_{}", f.name), bytes }, row + 2)
}

/// Pushes every file in chunks of `chunk` to a keep-going builder, as the worker does.
fn pushed(files: &[SourceFile], chunk: usize) -> (Vec<ImportError>, Result<Dataset, ImportError>) {
    let mut b = DatasetBuilder::keep_going();
    for f in files {
        b.push_chunk(&f.name, &[]).unwrap();
        for c in f.bytes.chunks(chunk) {
            b.push_chunk(&f.name, c).unwrap();
            if b.has_failed(&f.name) {
                break; // as the worker: the rest of a failed file is not read
            }
        }
        b.end_file().unwrap();
    }
    (b.failed().to_vec(), b.finish())
}

/// The dataset of `files` without the files named in `left_out`, as one parser that fails
/// on error reads it, with a warning for each file left out first: what keeping going gives.
fn expected(files: &[SourceFile], failed: &[ImportError]) -> Dataset {
    let good: Vec<SourceFile> = files.iter().filter(|f| !failed.iter().any(|e| e.file == f.name)).cloned().collect();
    let mut ds = load_dataset(&good).unwrap();
    ds.warnings.splice(0..0, failed.iter().map(DatasetBuilder::left_out));
    ds
}

#[test]
fn the_files_that_can_be_read_are_read_and_a_bad_one_is_named() {
    // A details page, a garbage file, the rocprof-compute MI350 pair.
    let files = vec![
        sample("ncu/nsightful__tests_copy_blocked.csv"),
        garbage("notes.bin"),
        sample("rocprof/rocm-systems__rocprofiler-compute_tests_workloads_vcopy_MI350_pmc_perf.csv"),
        sample("rocprof/rocm-systems__rocprofiler-compute_tests_workloads_vcopy_MI350_sysinfo.csv"),
    ];
    assert!(load_dataset(&files).is_err(), "one parser that fails on error fails the list");
    for chunk in [1 << 20, 4096, 100] {
        let (failed, ds) = pushed(&files, chunk);
        let ds = ds.unwrap();
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].file, "notes.bin");
        assert_eq!(ds, expected(&files, &failed), "in chunks of {chunk}");
        let names: Vec<&str> = ds.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(names, ["nsightful__tests_copy_blocked.csv", "rocm-systems__rocprofiler-compute_tests_workloads_vcopy_MI350_pmc_perf.csv", "rocm-systems__rocprofiler-compute_tests_workloads_vcopy_MI350_sysinfo.csv"]);
        // The page's warning names the file and why, first.
        let w = &ds.warnings[0];
        assert_eq!(w.file, "notes.bin");
        assert!(w.message.starts_with("left out notes.bin, which could not be read: "), "{}", w.message);
        assert!(w.message.ends_with(&failed[0].message), "{} / {}", w.message, failed[0].message);
        // Both runs' kernels are there: the details page's and the vcopy kernel on the MI350.
        assert!(ds.kernels.iter().any(|k| k.name.contains("vecCopy")), "{:?}", ds.kernels.iter().map(|k| &k.name).collect::<Vec<_>>());
        assert_eq!(ds.devices.runs.len(), 2, "{:?}", ds.devices.runs.iter().map(|r| &r.device.name).collect::<Vec<_>>());
    }
    // Added whole (pasted text, examples), the same.
    let mut b = DatasetBuilder::keep_going();
    for f in &files {
        b.add_file(f).unwrap();
    }
    let failed = b.failed().to_vec();
    assert_eq!(b.finish().unwrap(), expected(&files, &failed));
}

#[test]
fn a_file_failing_mid_way_is_taken_back_whole_even_its_joins() {
    // The NERSC run: five one-metric files of one run, each launch joined across files by id
    // and kernel name. The third breaks after 90 % of its rows, which joined the first two
    // files' launch records: the dataset is the one of the other four, to the bit.
    let mut run = nersc_run();
    let (broken, line) = broken_late(&run[2]);
    run[2] = broken;
    for chunk in [1 << 20, 64 << 10, 777] {
        let (failed, ds) = pushed(&run, chunk);
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert_eq!((failed[0].file.as_str(), failed[0].line), (run[2].name.as_str(), Some(line)), "{}", failed[0]);
        let ds = ds.unwrap();
        let want = expected(&run, &failed);
        assert!(want.launches.len() > 100 && want.kernels.len() > 10);
        assert!(ds == want, "in chunks of {chunk}: the broken file left something behind");
    }
    // The same file read by the second parser (`add_read` of its read, which carries the
    // error) or, as the first file, read by this one while the second reads the others.
    let mut b = DatasetBuilder::keep_going();
    for (i, f) in run.iter().enumerate() {
        if i >= 2 {
            let mut p = FileParser::new(&f.name);
            for c in f.bytes.chunks(64 << 10) {
                p.push(c);
            }
            b.add_read(&f.name, &p.finish().unwrap()).unwrap();
        } else {
            b.add_file(f).unwrap();
        }
    }
    let failed = b.failed().to_vec();
    assert_eq!((failed.len(), failed[0].line), (1, Some(line)));
    assert!(b.finish().unwrap() == expected(&run, &failed), "the second parser's failed file left something behind");
}

#[test]
fn a_large_file_failing_in_its_second_part_is_taken_back_whole() {
    // A raw page read in two parts (the app's split of a large file, `dataset::part`), the
    // break in the second part: the first part's launches, already in the dataset when the
    // part is taken over, go too; the next file is read as usual.
    let raw = sample(RAW);
    let (broken, line) = broken_late(&raw);
    let next = sample("ncu/nsightful__tests_copy_blocked.csv");
    let cut = broken.bytes.len() / 2;
    let mut p = PartParser::new(&broken.name, &broken.bytes[..1 << 16], cut as u64).expect("a raw page splits");
    for c in broken.bytes[cut..].chunks(4096) {
        p.push(c);
    }
    let part = p.finish();
    assert!(part.error.is_some(), "the part has the break");
    let start = part.start.unwrap() as usize;
    let mut b = DatasetBuilder::keep_going();
    b.push_chunk(&broken.name, &broken.bytes[..start]).unwrap();
    assert!(b.take_part(&broken.name, &part).unwrap(), "a failed part ends its file");
    assert!(b.has_failed(&broken.name));
    b.end_file().unwrap();
    b.add_file(&next).unwrap();
    let failed = b.failed().to_vec();
    assert_eq!((failed.len(), failed[0].file.as_str(), failed[0].line), (1, broken.name.as_str(), Some(line)), "{failed:?}");
    let files = [broken, next];
    assert!(b.finish().unwrap() == expected(&files, &failed));
}

#[test]
fn files_failing_outside_the_builder_are_left_out_too() {
    // The worker's own checks (a file over the size limit, one the browser could not read)
    // leave a file out the same way, even mid-way.
    let good = sample("ncu/nsightful__tests_copy_blocked.csv");
    let raw = sample(RAW);
    let mut b = DatasetBuilder::keep_going();
    b.fail_file(ImportError::new("huge.csv", None, "too large")).unwrap();
    b.push_chunk(&raw.name, &raw.bytes[..raw.bytes.len() / 2]).unwrap();
    b.fail_file(ImportError::new(&raw.name, None, "the browser could not read the file")).unwrap();
    b.push_chunk(&raw.name, &raw.bytes[raw.bytes.len() / 2..]).unwrap(); // ignored
    b.end_file().unwrap();
    b.add_file(&good).unwrap();
    let failed = b.failed().to_vec();
    assert_eq!(failed.iter().map(|e| e.file.as_str()).collect::<Vec<_>>(), ["huge.csv", raw.name.as_str()]);
    assert_eq!(b.finish().unwrap(), expected(&[raw, good], &failed));
    // Without keep-going, the error is returned.
    assert_eq!(DatasetBuilder::new().fail_file(ImportError::new("a", None, "x")).unwrap_err().message, "x");
}

#[test]
fn a_list_of_which_nothing_can_be_read_fails_naming_every_file() {
    // One file: its own error, as without keeping going.
    let one = [garbage("notes.bin")];
    let (_, got) = pushed(&one, 4096);
    assert_eq!(got.unwrap_err(), load_dataset(&one).unwrap_err());
    // Two: both named, each with why.
    let (broken, line) = broken_late(&sample(RAW));
    let two = [garbage("notes.bin"), broken.clone()];
    let e = pushed(&two, 4096).1.unwrap_err();
    assert_eq!(e.file, format!("notes.bin, {}", broken.name));
    let text = e.to_string();
    assert!(text.contains("none of these files could be read: notes.bin, line 4: the file is not text (invalid UTF-8)"), "{text}");
    assert!(text.contains(&format!("; {}, line {line}: ", broken.name)), "{text}");
    // A file read with no kernels beside a bad one: nothing to show, said so.
    let sysinfo = sample("rocprof/rocm-systems__rocprofiler-compute_tests_workloads_vcopy_MI350_sysinfo.csv");
    let alone = load_dataset(std::slice::from_ref(&sysinfo)).unwrap();
    assert!(alone.kernels.is_empty() && alone.machine.is_none(), "{alone:?}");
    let e = pushed(&[garbage("notes.bin"), sysinfo.clone()], 4096).1.unwrap_err();
    assert!(e.to_string().ends_with(&format!("; {}: no kernels found", sysinfo.name)), "{e}");
}
