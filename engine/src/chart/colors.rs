//! What a dot's colour means on the classic chart, with its legend.
//!
//! The classic chart's dots used to cycle through eight colours by kernel index, which mapped
//! to nothing. A colour now names a category from a legend, by one of three schemes
//! ([`ColorBy`]): the precision (the compute roof a kernel's FLOPs go to: `FP32`, `FP16
//! matrix`, the default, so a dot is read against the roof of the same name), the roof that
//! binds it (`HBM bandwidth`, `FP16 matrix compute`: the model's guidance), or the kernel
//! itself (the longest-running kernels by name, the others grey). Categories are ordered by
//! the run time they hold and take the Okabe–Ito hues in that order; the rest, and the
//! kernels with no category ("no FLOPs", "not assessed"), are grey.

use super::dots::largest_first;
#[cfg(doc)]
use super::flop_roofs::flops_by_roof;
use super::frame::{LegendItem, Swatch};
use super::scene::Color;
use super::ChartInput;
use crate::domain::profile::{KernelProfile, Precision};
use crate::domain::DataType;
use crate::model::{guidance, Ceiling, ComputeKind, Machine};
use std::collections::HashMap;

/// How the classic chart colours its dots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorBy {
    /// The compute roof a kernel's FLOPs go to ([`flops_by_roof`]).
    #[default]
    Precision,
    /// The bound that limits the kernel ([`guidance::guide`]).
    Bound,
    /// The kernel: the longest-running ones by name.
    Kernel,
}

impl ColorBy {
    pub const ALL: [ColorBy; 3] = [ColorBy::Precision, ColorBy::Bound, ColorBy::Kernel];

    /// The id in links (`precision`, `bound`, `kernel`).
    pub fn id(self) -> &'static str {
        match self {
            ColorBy::Precision => "precision",
            ColorBy::Bound => "bound",
            ColorBy::Kernel => "kernel",
        }
    }

    pub fn from_id(id: &str) -> Option<ColorBy> {
        ColorBy::ALL.into_iter().find(|c| c.id() == id)
    }

    /// What the scheme is called in the page's menu.
    pub fn label(self) -> &'static str {
        match self {
            ColorBy::Precision => "Precision",
            ColorBy::Bound => "Binding roof",
            ColorBy::Kernel => "Kernel",
        }
    }
}

/// Categories that get a colour of their own; the rest share [`GREY`] as "other".
const NAMED: usize = 7;
/// The palette's grey: kernels of no category and the categories past [`NAMED`].
pub const GREY: Color = Color(120, 120, 120);
/// Longest-running kernels named in [`ColorBy::Kernel`].
const KERNELS_NAMED: usize = 6;
/// Characters of a kernel's name in the legend.
const LEGEND_NAME_CHARS: usize = 28;

/// Each kernel's dot colour (parallel to the kernels) and the legend entries that explain
/// them, in legend order.
#[derive(Clone, Debug, PartialEq)]
pub struct Coloring {
    pub colors: Vec<Color>,
    pub legend: Vec<LegendItem>,
}

/// A category: its name and whether it is a real one (grey "no FLOPs" is not).
type Category = (String, bool);

/// The category of every kernel under `by`: an index into the returned names.
fn categories(input: &ChartInput, by: ColorBy, names: &[String]) -> (Vec<usize>, Vec<Category>) {
    let m = input.machine;
    let mut list: Vec<Category> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut of = |name: &str, real: bool| -> usize {
        if let Some(&i) = index.get(name) {
            return i;
        }
        list.push((name.to_string(), real));
        index.insert(name.to_string(), list.len() - 1);
        list.len() - 1
    };
    let kernels = input.kernels;
    let ids: Vec<usize> = match by {
        ColorBy::Precision => {
            let roofs = Roofs::of(m);
            kernels
                .iter()
                .map(|k| match roofs.dominant(k, m) {
                    Some(c) => of(&c.name, true),
                    None => of("no FLOPs", false),
                })
                .collect()
        }
        ColorBy::Bound => kernels
            .iter()
            .map(|k| match guidance::guide(k, m) {
                Some(g) => of(&g.binding.name, true),
                None => of("not assessed", false),
            })
            .collect(),
        ColorBy::Kernel => {
            let top = longest(kernels, KERNELS_NAMED);
            (0..kernels.len())
                .map(|i| match top.contains(&i) {
                    true => of(&super::super::domain::short_names::chart_label(names.get(i).map_or(kernels[i].name.as_str(), String::as_str), LEGEND_NAME_CHARS), true),
                    false => of("other kernels", false),
                })
                .collect()
        }
    };
    (ids, list)
}

/// The roofs a kernel's FLOPs go to, looked up once per chart ([`flops_by_roof`]'s rule for
/// one kernel, without its vector: this runs for each of tens of thousands of kernels).
struct Roofs<'m> {
    vector: [(Precision, Option<&'m Ceiling>); 3],
    matrix: [(DataType, Option<&'m Ceiling>); 9],
    untyped: Option<&'m Ceiling>,
}

impl<'m> Roofs<'m> {
    fn of(m: &'m Machine) -> Roofs<'m> {
        let kinds = [(Precision::Fp64, ComputeKind::Fp64), (Precision::Fp32, ComputeKind::Fp32), (Precision::Fp16, ComputeKind::Fp16)];
        Roofs {
            vector: kinds.map(|(p, k)| (p, m.compute_ceiling(k))),
            matrix: DataType::ALL.map(|t| (t, m.matrix_ceiling(t))),
            untyped: m.matrix_ceiling(DataType::Fp16).or_else(|| m.fastest_matrix_ceiling()),
        }
    }

    /// The roof with the most of the kernel's FLOPs; `None` without FLOPs.
    fn dominant(&self, k: &KernelProfile, m: &Machine) -> Option<&'m Ceiling> {
        let pos = |v: Option<f64>| v.filter(|v| v.is_finite() && *v > 0.0);
        let mut best: Option<(&'m Ceiling, f64)> = None;
        let mut consider = |c: Option<&'m Ceiling>, v: Option<f64>| {
            if let (Some(c), Some(v)) = (c, pos(v)) {
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((c, v));
                }
            }
        };
        for (p, c) in self.vector {
            consider(c, k.flops(p));
        }
        if k.has_typed_matrix_work() {
            for (t, c) in self.matrix {
                consider(c, k.matrix_flops(t));
            }
        } else {
            consider(self.untyped, k.tensor_flops(m.flops_per_tensor_inst));
        }
        best.map(|(c, _)| c)
    }
}

/// The indices of the `n` kernels with the longest positive time, longest first (ties: the
/// earlier kernel).
pub fn longest(kernels: &[KernelProfile], n: usize) -> Vec<usize> {
    let times: Vec<f64> = kernels.iter().map(|k| k.time_s().filter(|t| t.is_finite() && *t > 0.0).unwrap_or(0.0)).collect();
    largest_first(&times).into_iter().filter(|&i| times[i] > 0.0).take(n).collect()
}

/// The colours and legend of the classic chart's dots under `input.color_by`. `names`: the
/// kernels' display names (for [`ColorBy::Kernel`]'s legend), parallel to the kernels.
/// `drawn`: which kernels have a dot (parallel to the kernels; empty: all), so the legend
/// lists only colours the chart shows.
pub fn coloring(input: &ChartInput, names: &[String], drawn: &[bool]) -> Coloring {
    let pal = input.theme.palette();
    let (ids, cats) = categories(input, input.color_by, names);
    let mut shown = vec![drawn.is_empty(); cats.len()];
    for (&c, &d) in ids.iter().zip(drawn) {
        shown[c] |= d;
    }
    // Time per category, for the order; a category with no timed kernel still gets a place.
    let mut time = vec![0.0f64; cats.len()];
    for (k, &c) in input.kernels.iter().zip(&ids) {
        time[c] += k.time_s().filter(|t| t.is_finite() && *t > 0.0).unwrap_or(0.0);
    }
    // Real categories by time, then the grey ones ("no FLOPs") in order of appearance.
    let keys: Vec<f64> = cats.iter().zip(&time).map(|((_, real), t)| if *real { *t } else { -1.0 }).collect();
    let order = largest_first(&keys);
    let mut color_of = vec![GREY; cats.len()];
    let mut legend = Vec::new();
    let mut others = false;
    let mut hue = 0;
    // Only categories with a drawn kernel take a hue and a legend entry.
    for &c in order.iter().filter(|&&c| shown[c]) {
        let (name, real) = &cats[c];
        if *real && hue < NAMED {
            color_of[c] = pal.dots[hue];
            hue += 1;
            legend.push(LegendItem::new(Swatch::Dot(color_of[c]), name.clone()));
        } else if *real {
            others = true;
        } else {
            legend.push(LegendItem::new(Swatch::Dot(GREY), name.clone()));
        }
    }
    if others {
        legend.push(LegendItem::new(Swatch::Dot(GREY), "other"));
    }
    Coloring { colors: ids.iter().map(|&c| color_of[c]).collect(), legend }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::Counter;
    use crate::model::catalogue;

    fn k(name: &str, pairs: &[(Counter, f64)]) -> KernelProfile {
        KernelProfile::from_counters(name, pairs)
    }

    fn kernels() -> Vec<KernelProfile> {
        vec![
            k("dgemm", &[(Counter::Fp64Flops, 7e12), (Counter::DramBytes, 1e9), (Counter::TimeS, 1.0)]),
            k("saxpy", &[(Counter::Fp32Flops, 1e9), (Counter::DramBytes, 6e9), (Counter::TimeS, 2.0)]),
            k("copy", &[(Counter::Fp32Flops, 0.0), (Counter::DramBytes, 1e9), (Counter::TimeS, 4.0)]),
            k("hmma", &[(Counter::TensorInst, 1e8), (Counter::DramBytes, 1e9), (Counter::TimeS, 0.5)]),
        ]
    }

    fn legend_texts(c: &Coloring) -> Vec<&str> {
        c.legend.iter().map(|l| l.text.as_str()).collect()
    }

    #[test]
    fn by_precision_the_roof_names_in_order_of_time() {
        let m = catalogue::v100();
        let ks = kernels();
        let c = coloring(&ChartInput::new(&ks, &m, 800.0, 500.0), &[], &[]);
        // FP32 (2 s) before FP64 (1 s) before FP16 matrix (0.5 s, tensor instructions × 512
        // on a V100); the copy has no FLOPs and is grey, listed last.
        assert_eq!(legend_texts(&c), ["FP32", "FP64", "FP16 matrix", "no FLOPs"]);
        let pal = crate::chart::Theme::Light.palette();
        assert_eq!(c.colors, [pal.dots[1], pal.dots[0], GREY, pal.dots[2]]);
        // Only what is drawn is explained.
        let drawn = coloring(&ChartInput::new(&ks, &m, 800.0, 500.0), &[], &[true, false, false, true]);
        assert_eq!(legend_texts(&drawn), ["FP64", "FP16 matrix"]);
        assert_eq!([drawn.colors[0], drawn.colors[3]], [pal.dots[0], pal.dots[1]], "the hues in legend order");
    }

    #[test]
    fn by_bound_the_binding_roofs() {
        let m = catalogue::v100();
        let ks = kernels();
        let c = coloring(&ChartInput::new(&ks, &m, 800.0, 500.0).with_color_by(ColorBy::Bound), &[], &[]);
        // saxpy, copy and hmma move more bytes than their FLOPs take at the peaks: HBM-bound
        // (6.5 s in all); dgemm's 7 TFLOP take 0.89 s at 7.83 TFLOP/s against 1.2 ms of HBM.
        assert_eq!(legend_texts(&c), ["HBM bandwidth", "FP64 compute"]);
    }

    #[test]
    fn by_kernel_the_longest_by_name_and_the_rest_grey() {
        let m = catalogue::v100();
        let ks: Vec<KernelProfile> = (0..9).map(|i| k(&format!("k{i}"), &[(Counter::TimeS, 1.0 + i as f64)])).collect();
        let c = coloring(&ChartInput::new(&ks, &m, 800.0, 500.0).with_color_by(ColorBy::Kernel), &[], &[]);
        assert_eq!(legend_texts(&c), ["k8", "k7", "k6", "k5", "k4", "k3", "other kernels"]);
        assert_eq!(c.colors[0], GREY);
        assert_eq!(longest(&ks, 2), [8, 7]);
    }

    #[test]
    fn ids_round_trip() {
        for c in ColorBy::ALL {
            assert_eq!(ColorBy::from_id(c.id()), Some(c));
        }
        assert_eq!(ColorBy::from_id("hue"), None);
    }
}
