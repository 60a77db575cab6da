//! Which chart settings apply to a mode and a dataset, so the page shows only those: an L3
//! switch on a GPU without L3 counters, walls and the LD/ST word size on the classic chart,
//! or "all roofs" when the kernels already use every roof change nothing and only clutter.

use super::flop_roofs::unused_roofs;
use super::Mode;
use crate::domain::profile::KernelProfile;
use crate::model::hierarchical::{level_bytes, sizes};
use crate::model::instruction::{instruction_points_iter, threads_per_warp};
use crate::model::walls::{global_ldst, shared_ldst};
use crate::model::{Level, Machine};

/// The settings that change a mode's chart for these kernels on this machine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Controls {
    /// Memory levels the chart draws something at, each with the name its switch has in
    /// this mode ("L2"; "global LD/ST" for L1 on the walls chart).
    pub levels: Vec<(Level, String)>,
    /// Which compute roof's ridges are marked (classic, hierarchical).
    pub compute_roof: bool,
    /// Every roof of the machine, when it has roofs the kernels do not use.
    pub all_roofs: bool,
    /// Roofs and ridge marks on or off (every kernel chart).
    pub ceilings: bool,
    /// The memory walls and their word size (walls).
    pub walls: bool,
    /// What the dot colours mean (classic).
    pub color_by: bool,
}

fn positive(v: Option<f64>) -> bool {
    v.is_some_and(|v| v.is_finite() && v > 0.0)
}

/// The levels some kernel has a dot at in `mode`, in [`Level::ALL`] order.
fn levels_with_dots(kernels: &[KernelProfile], m: &Machine, mode: Mode) -> Vec<Level> {
    let (s, tpw) = (sizes(Some(m)), threads_per_warp(Some(m)));
    let mut present = [false; Level::ALL.len()];
    for k in kernels {
        match mode {
            Mode::Hierarchical => {
                for l in Level::ALL {
                    present[l as usize] |= positive(level_bytes(k, l, &s));
                }
            }
            Mode::Instruction => {
                for p in instruction_points_iter(k, &s, tpw) {
                    present[p.level as usize] |= positive(Some(p.warp_inst_per_txn)) && positive(Some(p.warp_inst_per_s));
                }
            }
            Mode::Walls => {
                present[Level::L1 as usize] |= global_ldst(k).is_some_and(|p| positive(p.inst_per_s)) || instruction_points_iter(k, &s, tpw).any(|p| p.level == Level::L1);
                present[Level::Shared as usize] |= shared_ldst(k).is_some_and(|p| positive(p.inst_per_s));
            }
            Mode::Classic | Mode::Transfers => {}
        }
    }
    Level::ALL.into_iter().filter(|l| present[*l as usize]).collect()
}

/// The settings that apply to `mode` for `kernels` on `m`.
pub fn controls(kernels: &[KernelProfile], m: &Machine, mode: Mode) -> Controls {
    let levels = levels_with_dots(kernels, m, mode)
        .into_iter()
        .map(|l| {
            let name = match (mode, l) {
                (Mode::Walls, Level::L1) => "global LD/ST".to_string(),
                (Mode::Walls, Level::Shared) => "shared LD/ST".to_string(),
                _ => super::hierarchical::level_name(m, l),
            };
            (l, name)
        })
        .collect::<Vec<_>>();
    // One level is no choice: the switch would only empty the chart.
    let levels = if levels.len() > 1 { levels } else { Vec::new() };
    let flop = matches!(mode, Mode::Classic | Mode::Hierarchical);
    Controls {
        levels,
        compute_roof: flop,
        all_roofs: flop && !unused_roofs(kernels, m).is_empty(),
        ceilings: mode != Mode::Transfers || !kernels.is_empty(),
        walls: mode == Mode::Walls,
        color_by: mode == Mode::Classic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::Counter;
    use crate::model::catalogue;

    #[test]
    fn only_what_applies() {
        let m = catalogue::v100();
        let ks = [KernelProfile::from_counters("k", &[(Counter::Fp32Flops, 1e9), (Counter::DramBytes, 1e8), (Counter::L2Bytes, 2e8), (Counter::TimeS, 1e-3)])];
        let classic = controls(&ks, &m, Mode::Classic);
        assert!(classic.levels.is_empty() && classic.compute_roof && classic.color_by && !classic.walls);
        // The V100 has FP64, FP16, matrix and INT roofs this FP32 kernel does not use.
        assert!(classic.all_roofs);
        let h = controls(&ks, &m, Mode::Hierarchical);
        assert_eq!(h.levels, [(Level::L2, "L2".to_string()), (Level::Dram, "HBM".to_string())]);
        assert!(!h.color_by);
        let w = controls(&ks, &m, Mode::Walls);
        assert!(w.walls && w.levels.is_empty() && !w.compute_roof && !w.all_roofs);
    }
}
