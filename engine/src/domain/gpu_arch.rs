//! The architecture of an NVIDIA GPU named only by its product name.
//!
//! nvprof's `Device` column names the GPU ("GeForce GTX 1080 Ti (0)", "Tesla K80 (0)") but not
//! its compute capability, and Nsight Compute does not run on these parts (Kepler to Pascal:
//! no support from 2020 on), so for them the name is all a profile gives. This table turns it
//! into the compute capability and `sm_XY` architecture compilers use, so that a profile says
//! what ran it even where the catalogue has no roofs for it.
//!
//! Source: NVIDIA, "CUDA GPUs — Compute Capability" (<https://developer.nvidia.com/cuda-gpus>,
//! its "Legacy CUDA GPU compute capability" tables for Tesla, Quadro and GeForce products).
//! Only parts whose name fixes one chip are listed: boards sold under one name with chips
//! of two generations (GeForce GT 640, GT 730: GK107/GK208 and GF108) are left out.

/// Product names (lowercase, without the "NVIDIA " prefix) → compute capability. Longer names
/// come first where one extends another ("geforce gtx 1080 ti" before "geforce gtx 1080").
const PRODUCTS: &[(&str, (u32, u32))] = &[
    // Tesla (data centre) boards.
    ("tesla c2050", (2, 0)),
    ("tesla c2070", (2, 0)),
    ("tesla c2075", (2, 0)),
    ("tesla m2050", (2, 0)),
    ("tesla m2070", (2, 0)),
    ("tesla m2090", (2, 0)),
    ("tesla k10", (3, 0)),
    ("tesla k20x", (3, 5)),
    ("tesla k20", (3, 5)),
    ("tesla k40", (3, 5)),
    ("tesla k80", (3, 7)),
    ("tesla m40", (5, 2)),
    ("tesla m60", (5, 2)),
    ("tesla m4", (5, 2)),
    ("tesla p100", (6, 0)),
    ("tesla p40", (6, 1)),
    ("tesla p4", (6, 1)),
    // Quadro.
    ("quadro k6000", (3, 5)),
    ("quadro m6000", (5, 2)),
    ("quadro p6000", (6, 1)),
    ("quadro gp100", (6, 0)),
    // GeForce: Fermi.
    ("geforce gtx 480", (2, 0)),
    ("geforce gtx 470", (2, 0)),
    ("geforce gtx 580", (2, 0)),
    ("geforce gtx 570", (2, 0)),
    // Kepler.
    ("geforce gtx 690", (3, 0)),
    ("geforce gtx 680", (3, 0)),
    ("geforce gtx 670", (3, 0)),
    ("geforce gtx 660 ti", (3, 0)),
    ("geforce gtx 660", (3, 0)),
    ("geforce gtx 770", (3, 0)),
    ("geforce gtx 760", (3, 0)),
    ("geforce gtx 780 ti", (3, 5)),
    ("geforce gtx 780", (3, 5)),
    ("geforce gtx titan black", (3, 5)),
    ("geforce gtx titan z", (3, 5)),
    // Maxwell.
    ("geforce gtx 750 ti", (5, 0)),
    ("geforce gtx 750", (5, 0)),
    ("geforce gtx titan x", (5, 2)),
    ("geforce gtx titan", (3, 5)),
    ("geforce gtx 980 ti", (5, 2)),
    ("geforce gtx 980", (5, 2)),
    ("geforce gtx 970", (5, 2)),
    ("geforce gtx 960", (5, 2)),
    ("geforce gtx 950", (5, 2)),
    // Pascal.
    ("geforce gtx 1080 ti", (6, 1)),
    ("geforce gtx 1080", (6, 1)),
    ("geforce gtx 1070 ti", (6, 1)),
    ("geforce gtx 1070", (6, 1)),
    ("geforce gtx 1060", (6, 1)),
    ("geforce gtx 1050 ti", (6, 1)),
    ("geforce gtx 1050", (6, 1)),
    ("titan xp", (6, 1)),
    ("titan x (pascal)", (6, 1)),
];

/// The compute capability of a GPU named `name` as a profiler prints it ("GeForce GTX 760 (1)",
/// "NVIDIA GeForce GTX 1080 Ti", "Tesla K40m"): the longest listed product the name starts
/// with, where what follows is no other model (a board letter such as K40's `c`/`m`, a memory
/// size, a device index, nothing); `None` for any other name.
pub fn compute_capability_of_name(name: &str) -> Option<(u32, u32)> {
    let lower = name.trim().to_ascii_lowercase();
    let n = lower.strip_prefix("nvidia ").unwrap_or(&lower);
    PRODUCTS
        .iter()
        .filter(|(p, _)| n.strip_prefix(p).is_some_and(ends_the_model))
        .max_by_key(|(p, _)| p.len())
        .map(|&(_, cc)| cc)
}

/// Whether `rest`, what follows a product name, leaves the model as named: nothing, a device
/// index or memory size after a space or dash ("GeForce GTX 1060 6GB", "(0)"), or a Tesla
/// board letter (K40c, K40m, K20Xm). Not " Ti" or a digit: another model.
fn ends_the_model(rest: &str) -> bool {
    let mut chars = rest.chars();
    match chars.next() {
        None => true,
        Some('c' | 'm') => chars.next().is_none_or(|c| !c.is_ascii_alphanumeric()),
        Some(' ' | '-' | '(') => {
            let word = rest.trim_start_matches([' ', '-']).to_ascii_lowercase();
            !(word.starts_with("ti") || word.starts_with("super") || word.starts_with("black") || word.starts_with('x') || word.starts_with('z'))
        }
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_names_give_their_compute_capability() {
        // The nvprof samples' devices (shared/samples/SOURCES.md) and Tesla board variants.
        assert_eq!(compute_capability_of_name("GeForce GTX 1080 Ti"), Some((6, 1)));
        assert_eq!(compute_capability_of_name("GeForce GTX 950"), Some((5, 2)));
        assert_eq!(compute_capability_of_name("GeForce GTX 760 (1)"), Some((3, 0)));
        assert_eq!(compute_capability_of_name("NVIDIA GeForce GTX 1070"), Some((6, 1)));
        assert_eq!(compute_capability_of_name("Tesla K80"), Some((3, 7)));
        assert_eq!(compute_capability_of_name("Tesla K40m"), Some((3, 5)));
        assert_eq!(compute_capability_of_name("Tesla K20Xm"), Some((3, 5)));
        assert_eq!(compute_capability_of_name("GeForce GTX 1060 6GB"), Some((6, 1)));
        // A longer model is not its prefix's: the GTX TITAN X is Maxwell, the GTX TITAN Kepler.
        assert_eq!(compute_capability_of_name("GeForce GTX TITAN X"), Some((5, 2)));
        assert_eq!(compute_capability_of_name("GeForce GTX TITAN"), Some((3, 5)));
        assert_eq!(compute_capability_of_name("GeForce GTX 780 Ti"), Some((3, 5)));
        // Unlisted models are not guessed from a listed prefix.
        assert_eq!(compute_capability_of_name("GeForce GTX 1080 Super"), None);
        assert_eq!(compute_capability_of_name("Tesla K400"), None);
        assert_eq!(compute_capability_of_name("Tesla V100-SXM2-16GB"), None);
        assert_eq!(compute_capability_of_name(""), None);
    }
}
