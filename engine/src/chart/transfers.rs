//! The transfers chart: each copy or memset (all calls of one name) at its achieved bandwidth
//! against the ceiling of what it crosses (GPU course slides, "PCI-E bandwidth (roofline
//! model)": copies are bound by the link, not by the GPU's memory).
//!
//! x is the bytes moved per call (small copies are latency-bound and sit far below the
//! link), y the achieved bytes/s; each roof of `model::transfers::roof` (PCIe, NVLink, DRAM
//! read + write for device copies, DRAM for memsets) is a flat line. Dots are coloured by the
//! kind of copy and sized by their share of the copies' time. `Hit::kernel` indexes the
//! transfers.

use super::dots::{radius_px, Dot};
use super::frame::{auto_range, Axes, Builder, LegendItem, Swatch};
use super::roofs::{giga4, Style};
use super::scene::{Marker, Scene};
use super::ChartInput;
use crate::model::transfers::{transfer_points, TransferKind};
use crate::units::GIGA;

/// Kinds in legend order, with their names and palette slot.
const KINDS: [(TransferKind, &str); 6] = [
    (TransferKind::HostToDevice, "host → device"),
    (TransferKind::DeviceToHost, "device → host"),
    (TransferKind::DeviceToDevice, "device → device"),
    (TransferKind::PeerToPeer, "peer → peer"),
    (TransferKind::Memset, "memset"),
    (TransferKind::Other, "other"),
];

fn slot(kind: TransferKind) -> usize {
    KINDS.iter().position(|k| k.0 == kind).unwrap_or(KINDS.len() - 1)
}

pub fn build(input: &ChartInput) -> Scene {
    let points = transfer_points(input.transfers, Some(input.machine));
    // (index, bytes per call, bytes/s) of the drawable ones.
    let dots: Vec<(usize, f64, f64)> = points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let per_call = p.bytes? / p.count.max(1) as f64;
            let rate = p.bytes_per_s?;
            (per_call.is_finite() && per_call > 0.0 && rate.is_finite() && rate > 0.0).then_some((i, per_call, rate))
        })
        .collect();
    // Distinct roofs, first appearance first.
    let mut roofs: Vec<(String, f64)> = Vec::new();
    for p in &points {
        if let (Some(name), Some(bw)) = (&p.roof, p.roof_bytes_per_s) {
            if bw.is_finite() && bw > 0.0 && !roofs.iter().any(|r| &r.0 == name) {
                roofs.push((name.clone(), bw));
            }
        }
    }
    if roofs.is_empty() {
        roofs.extend(input.machine.links.iter().filter(|l| l.bytes_per_s > 0.0).map(|l| (l.name.clone(), l.bytes_per_s)));
    }
    let top = roofs.iter().map(|r| r.1).fold(0.0, f64::max);
    let x_auto = auto_range(dots.iter().map(|d| d.1).chain([1e3, 1e9]), 0.2);
    let y_auto = auto_range(dots.iter().map(|d| d.2).chain(roofs.iter().map(|r| r.1)).chain([top / 1e4]), 0.15);

    let pal = input.theme.palette();
    let mut legend: Vec<LegendItem> = KINDS
        .iter()
        .filter(|(k, _)| dots.iter().any(|d| points[d.0].kind == *k))
        .map(|&(k, name)| LegendItem::new(Swatch::Dot(pal.dots[slot(k)]), name))
        .collect();
    legend.push(LegendItem::sizes());
    let mut b = Builder::new(input, x_auto, y_auto, &legend);

    let time = |i: usize| points[i].time_s.filter(|t| t.is_finite() && *t > 0.0);
    let total: f64 = dots.iter().filter_map(|d| time(d.0)).sum();
    for &(i, x, y) in &dots {
        let share = if total > 0.0 { time(i).map_or(0.0, |t| t / total) } else { 0.0 };
        let color = pal.dots[slot(points[i].kind)];
        let selected = input.selected == Some(i);
        b.dot(Dot { kernel: i, x, y, r: radius_px(share), fill: Some(color), stroke: color, level: None, marker: Marker::Transfer, selected });
    }
    b.axes(&Axes { x_title: "Bytes per call", y_title: "Bandwidth (GB/s)", x_div: 1.0, y_div: GIGA });
    if input.show_ceilings {
        let levels: Vec<f64> = roofs.iter().map(|r| r.1).collect();
        for (name, bw) in &roofs {
            b.flat_roof(*bw, 0.0, Style::solid(pal.memory), &format!("{name} {} GB/s", giga4(*bw)), &levels);
        }
    }
    b.finish()
}
