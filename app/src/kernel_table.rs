//! The kernel table: one row per kernel, selection shared with the chart. Names are text nodes,
//! never HTML.

use crate::app::AppState;
use leptos::prelude::*;
use roofline_engine::counters::Counter;
use roofline_engine::units::si;

fn cell(v: Option<f64>, unit: &str) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{}{unit}", si(v)))
}

#[component]
pub fn KernelTable(state: AppState) -> impl IntoView {
    let rows = move || {
        let kernels = state.kernels.get();
        let machine = state.machine.get();
        let total_time_s: f64 = kernels.iter().filter_map(|k| k.time_s()).sum();
        kernels
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let flops = k.total_flops(machine.flops_per_tensor_inst);
                let bytes = k.counters.get(Counter::DramBytes);
                let time = k.time_s();
                let share = time.filter(|_| total_time_s > 0.0).map(|t| format!("{:.1}%", 100.0 * t / total_time_s));
                let ai = match (flops, bytes) {
                    (Some(f), Some(b)) if b > 0.0 => format!("{:.3}", f / b),
                    _ => "–".into(),
                };
                let perf = match (flops, time) {
                    (Some(f), Some(t)) if t > 0.0 => format!("{}FLOP/s", si(f / t)),
                    _ => "–".into(),
                };
                let name = k.name.clone();
                let title = k.name.clone();
                view! {
                    <tr
                        class:selected=move || state.selected.get() == Some(i)
                        on:click=move |_| state.selected.set(Some(i))
                    >
                        <td class="name" title=title>{name}</td>
                        <td class="num">{k.launches}</td>
                        <td class="num">{cell(time, "s")}</td>
                        <td class="num">{share.unwrap_or_else(|| "–".into())}</td>
                        <td class="num">{cell(flops, "FLOP")}</td>
                        <td class="num">{cell(bytes, "B")}</td>
                        <td class="num">{ai}</td>
                        <td class="num">{perf}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <table class="kernels" aria-label="Kernels">
            <thead>
                <tr>
                    <th scope="col">"Kernel"</th>
                    <th scope="col">"Launches"</th>
                    <th scope="col">"Time"</th>
                    <th scope="col">"Share"</th>
                    <th scope="col">"FLOPs"</th>
                    <th scope="col">"DRAM bytes"</th>
                    <th scope="col">"FLOP/byte"</th>
                    <th scope="col">"Performance"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
