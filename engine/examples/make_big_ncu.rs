//! Writes a large Nsight Compute raw-page CSV for the speed budgets (scripts/bench.sh):
//!
//! ```text
//! cargo run --release -p roofline-engine --example make_big_ncu -- SAMPLE.csv OUT.csv SIZE_MB
//! ```
//!
//! The launches of SAMPLE (a real `ncu --csv --page raw` file) are repeated with renumbered
//! IDs until OUT is at least SIZE_MB × 10⁶ bytes. Generated files are never committed: write
//! them under target/ or /tmp.

#[path = "../benches/support/big_ncu.rs"]
mod big_ncu;

use std::io::{BufWriter, Write};
use std::process::ExitCode;

fn run(args: &[String]) -> Result<u64, String> {
    let [sample, out, size_mb] = args else {
        return Err("usage: make_big_ncu SAMPLE.csv OUT.csv SIZE_MB".into());
    };
    let size_mb: f64 = size_mb.parse().map_err(|_| format!("SIZE_MB is a number, not {size_mb:?}"))?;
    let text = std::fs::read_to_string(sample).map_err(|e| format!("{sample}: {e}"))?;
    let file = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let target_bytes = (size_mb * 1e6) as u64;
    let n = big_ncu::write_big_ncu(&text, target_bytes, &mut w).map_err(|e| format!("{out}: {e}"))?;
    w.flush().map_err(|e| format!("{out}: {e}"))?;
    Ok(n)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(n) => {
            println!("{n}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("make_big_ncu: {e}");
            ExitCode::FAILURE
        }
    }
}
