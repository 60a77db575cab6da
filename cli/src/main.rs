//! `roofline`: analyse profiler files and print machines, natively, with the app's engine.

fn main() {
    eprintln!("roofline: not implemented yet");
    std::process::exit(2);
}
