//! Entry point of the web app (built by Trunk).

fn main() {
    roofline_app::start();
}
