//! Prints the devices and measured clock a set of files describes (development aid).
fn main() {
    let files: Vec<roofline_engine::SourceFile> = std::env::args()
        .skip(1)
        .map(|p| roofline_engine::SourceFile { name: p.clone(), bytes: std::fs::read(&p).unwrap_or_default() })
        .collect();
    match roofline_engine::load_dataset(&files) {
        Ok(ds) => {
            for r in &ds.devices.runs {
                println!("{} | time {:.6} s | launches {} | clock {:?}", r.device.describe(), r.kernel_time_s, r.launches, r.measured_sm_clock_hz());
                println!("  {:?}", r.device);
            }
            println!("measured clock: {:?}", ds.measured_sm_clock_hz());
            for w in &ds.warnings {
                println!("warning: {w}");
            }
        }
        Err(e) => println!("error: {e}"),
    }
}
