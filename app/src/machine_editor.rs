//! The machine picker and editor: a catalogue machine, its base or boost clock, data-sheet or
//! measured peaks, and every ceiling editable in GFLOP/s and GB/s. The editor always shows
//! `state.machine`, so a machine loaded from a file (ERT, Advisor roofs, rocprof roofline) or
//! a link appears here too. An edited machine gets the id [`CUSTOM_ID`]; the share link then
//! carries it in full (`share::View::set_machine`).
//!
//! The edits are pure functions of a `Machine` (tested in `app/tests/web_export.rs`); the
//! clock and basis arithmetic is the engine's (`Machine::at_clock`, `Machine::with_basis`).

use crate::state::AppState;
use leptos::prelude::*;
use crate::reactive::{flag, handler, text};
use roofline_engine::choice::{ClockBasis, ClockChoice, Chosen};
use roofline_engine::model::{catalogue, Basis, Machine};
use roofline_engine::units::GIGA;

/// The id of a machine edited in the page.
pub const CUSTOM_ID: &str = "custom";

/// Which of the machine's stated clocks it is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    Base,
    Boost,
}

/// The machine marked as edited: id [`CUSTOM_ID`], " (edited)" after its name, and its source
/// saying what it was edited from (once).
pub fn mark_edited(m: &Machine) -> Machine {
    let mut out = m.clone();
    if out.id != CUSTOM_ID {
        out.id = CUSTOM_ID.into();
        out.name = format!("{} (edited)", m.name);
        out.source = format!("edited in the page from {} ({})", m.name, m.source);
    }
    out
}

/// Valid ceiling values: finite and positive.
fn positive(v: f64) -> Option<f64> {
    (v.is_finite() && v > 0.0).then_some(v)
}

/// The machine with compute ceiling `index` at `gflop_per_s` GFLOP/s (decimal, × 1e9), marked
/// edited; `None` if there is no such ceiling or the value is not a positive number.
pub fn set_compute_gflops(m: &Machine, index: usize, gflop_per_s: f64) -> Option<Machine> {
    let v = positive(gflop_per_s)? * GIGA;
    m.compute.get(index)?;
    let mut out = mark_edited(m);
    out.compute[index].flops_per_s = v;
    Some(out)
}

/// The machine with memory level `index` at `gbyte_per_s` GB/s (decimal, × 1e9), marked
/// edited; `None` if there is no such level or the value is not a positive number.
pub fn set_memory_gbps(m: &Machine, index: usize, gbyte_per_s: f64) -> Option<Machine> {
    let v = positive(gbyte_per_s)? * GIGA;
    m.memory.get(index)?;
    let mut out = mark_edited(m);
    out.memory[index].bytes_per_s = v;
    Some(out)
}

fn close_hz(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.5e6
}

/// Which stated clock the machine is at, if it states both and is at one of them.
pub fn clock_of(m: &Machine) -> Option<Clock> {
    let (now, base, boost) = (m.clock_hz?, m.base_clock_hz?, m.boost_clock_hz?);
    if close_hz(now, boost) {
        Some(Clock::Boost)
    } else if close_hz(now, base) {
        Some(Clock::Base)
    } else {
        None
    }
}

/// The machine at its base or boost clock (`Machine::at_clock`: compute and on-chip
/// bandwidths scale, DRAM does not), with the "(NNNN MHz)" in its name updated; `None` if it
/// does not state that clock.
pub fn at_clock(m: &Machine, clock: Clock) -> Option<Machine> {
    let hz = match clock {
        Clock::Base => m.base_clock_hz?,
        Clock::Boost => m.boost_clock_hz?,
    };
    m.clock_hz?;
    let mut out = m.at_clock(hz);
    out.name = rename_clock(&m.name, hz);
    Some(out)
}

/// "NVIDIA V100 SXM2 (1530 MHz)" → "NVIDIA V100 SXM2 (1312 MHz)"; names without a clock stay.
fn rename_clock(name: &str, hz: f64) -> String {
    if let Some(open) = name.rfind('(') {
        let inner = &name[open + 1..];
        if let Some(mhz) = inner.strip_suffix(" MHz)") {
            if mhz.chars().all(|c| c.is_ascii_digit()) {
                return format!("{}({:.0} MHz)", &name[..open], hz / 1e6);
            }
        }
    }
    name.to_string()
}

/// Whether the machine has data-sheet and measured peaks that differ (the switch is useful).
pub fn has_two_bases(m: &Machine) -> bool {
    m.theoretical.is_some() && m.empirical.is_some() && m.with_basis(Basis::Theoretical) != m.with_basis(Basis::Empirical)
}

/// The basis the machine's ceilings are on: data sheet when they equal the data-sheet set
/// and not the measured one, else measured where known (the catalogue's default).
pub fn basis_of(m: &Machine) -> Basis {
    if has_two_bases(m) && m.with_basis(Basis::Theoretical) == *m {
        Basis::Theoretical
    } else {
        Basis::Empirical
    }
}

/// GFLOP/s or GB/s as the inputs show them: up to 4 decimals, no trailing zeros.
pub fn giga_text(v: f64) -> String {
    let s = format!("{:.4}", v / GIGA);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn parse_number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok()
}

/// The catalogue grouped for the picker: vendor and generation ("NVIDIA Hopper"), in the
/// catalogue's order, each group's machines as (id, name).
pub fn groups(machines: &[Machine], query: &str) -> Vec<(String, Vec<(String, String)>)> {
    // ASCII case folding: the catalogue's names are ASCII (Unicode's tables would be 12 KB of
    // the wasm, engine/src/notice.rs).
    let q = query.trim().to_ascii_lowercase();
    let matches = |m: &Machine| {
        q.is_empty() || [m.id.as_str(), m.name.as_str(), m.arch.as_deref().unwrap_or(""), m.generation.as_deref().unwrap_or("")].iter().any(|t| t.to_ascii_lowercase().contains(&q))
    };
    let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for m in machines.iter().filter(|m| matches(m)) {
        let vendor = match m.vendor {
            Some(roofline_engine::domain::Vendor::Nvidia) => "NVIDIA",
            Some(roofline_engine::domain::Vendor::Amd) => "AMD",
            Some(roofline_engine::domain::Vendor::Intel) => "Intel",
            None => "Other",
        };
        let label = format!("{vendor} {}", m.generation.as_deref().unwrap_or("")).trim().to_string();
        match out.iter_mut().find(|(l, _)| *l == label) {
            Some((_, list)) => list.push((m.id.clone(), m.name.clone())),
            None => out.push((label, vec![(m.id.clone(), m.name.clone())])),
        }
    }
    out
}

/// The clock a basis means for `m`, as the engine's choice takes it.
fn clock_choice(basis: ClockBasis, m: &Machine) -> ClockChoice {
    match basis {
        ClockBasis::Measured => ClockChoice::Measured,
        ClockBasis::Base => ClockChoice::Base,
        ClockBasis::Boost => ClockChoice::Boost,
        ClockBasis::Given | ClockBasis::Stated => m.clock_hz.map_or(ClockChoice::Measured, ClockChoice::Hz),
    }
}

#[component]
pub fn MachineEditor(state: AppState) -> impl IntoView {
    let machine = state.machine;
    let cat = StoredValue::new(catalogue::all());
    let query = RwSignal::new(String::new());
    let is_catalogue = move |id: &str| cat.with_value(|c| c.iter().any(|x| x.id == id));
    // Machines the files offer that the catalogue does not have (the profile's own peaks, a
    // machine file, Advisor's single-threaded roofs), and the machine shown if it is such.
    let offered = move || {
        let mut list: Vec<Machine> = state.profile.with(|p| p.identified.iter().chain(p.alternatives.iter()).filter(|m| !is_catalogue(&m.id)).cloned().collect());
        machine.with(|m| {
            if !is_catalogue(&m.id) && !list.iter().any(|x| x.id == m.id) {
                list.insert(0, m.clone());
            }
        });
        list
    };

    let on_pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        let picked = catalogue::by_id(&id).or_else(|| offered().into_iter().find(|m| m.id == id));
        let Some(m) = picked else { return };
        let (measured, from_ncu) = state.profile.with_untracked(|p| (p.measured_sm_clock_hz, p.from_ncu));
        let basis = state.clock_basis.get_untracked();
        let wanted = clock_choice(basis, &machine.get_untracked());
        match roofline_engine::choice::at_clock(m.clone(), wanted, measured, from_ncu).or_else(|_| roofline_engine::choice::at_clock(m, ClockChoice::Measured, measured, from_ncu)) {
            Ok((m, basis)) => {
                machine.set(m);
                state.clock_basis.set(basis);
                if state.chosen.get_untracked().is_some() {
                    let own = state.profile.with_untracked(|p| p.identified.as_ref().is_some_and(|i| i.id == id));
                    state.chosen.set(Some(if own { Chosen::Profile } else { Chosen::Option }));
                }
            }
            Err(e) => state.error.set(Some(e)),
        }
    };
    let set_clock = move |wanted: ClockChoice| {
        let (measured, from_ncu) = state.profile.with_untracked(|p| (p.measured_sm_clock_hz, p.from_ncu));
        match roofline_engine::choice::at_clock(machine.get_untracked(), wanted, measured, from_ncu) {
            Ok((m, basis)) => {
                state.error.set(None);
                machine.set(m);
                state.clock_basis.set(basis);
            }
            Err(e) => state.error.set(Some(e)),
        }
    };
    let on_clock = move |ev: leptos::ev::Event| match event_target_value(&ev).as_str() {
        "measured" => set_clock(ClockChoice::Measured),
        "base" => set_clock(ClockChoice::Base),
        "boost" => set_clock(ClockChoice::Boost),
        _ => {}
    };
    let on_mhz = move |ev: web_sys::Event| match ClockChoice::parse(&event_target_value(&ev)) {
        Ok(c) => set_clock(c),
        Err(e) => state.error.set(Some(e)),
    };
    let on_basis = move |ev: leptos::ev::Event| {
        let basis = if event_target_value(&ev) == "theoretical" { Basis::Theoretical } else { Basis::Empirical };
        let m = machine.with_untracked(|m| m.with_basis(basis));
        machine.set(m);
    };

    let clock_label = move |clock: Clock| {
        machine.with(|m| {
            let hz = match clock {
                Clock::Base => m.base_clock_hz,
                Clock::Boost => m.boost_clock_hz,
            };
            let word = if clock == Clock::Base { "Base" } else { "Boost" };
            hz.map_or(word.to_string(), |hz| format!("{word} {:.0} MHz", hz / 1e6))
        })
    };
    let measured_label = move || state.profile.with(|p| p.measured_sm_clock_hz.map_or("Measured (none in the files)".to_string(), |hz| format!("Measured {:.0} MHz", hz / 1e6)));
    let basis = state.clock_basis;

    view! {
        <div class="machine-editor" role="group" aria-label="Machine and ceilings">
            <label class="machine-search">
                <span class="visually-hidden">"Search machines"</span>
                <input type="search" placeholder="Search machines" aria-label="Search machines" prop:value=text(move || query.get()) on:input=handler(move |ev: web_sys::Event| query.set(event_target_value(&ev))) />
            </label>
            <label class="machine-pick">
                "Machine "
                <select id="machine-pick" aria-label="Machine" on:change=handler(on_pick)>
                    {move || {
                        let list = offered();
                        (!list.is_empty()).then(|| {
                            view! {
                                <optgroup label="From your files">
                                    {list.into_iter().map(|m| {
                                        let id = m.id.clone();
                                        view! { <option value=m.id.clone() prop:selected=flag(move || machine.with(|cur| cur.id == id))>{m.name.clone()}</option> }
                                    }).collect_view()}
                                </optgroup>
                            }
                        })
                    }}
                    {move || {
                        let q = query.get();
                        cat.with_value(|c| groups(c, &q))
                            .into_iter()
                            .map(|(label, list)| {
                                view! {
                                    <optgroup label=label>
                                        {list.into_iter().map(|(id, name)| {
                                            let id2 = id.clone();
                                            view! { <option value=id prop:selected=flag(move || machine.with(|cur| cur.id == id2))>{name}</option> }
                                        }).collect_view()}
                                    </optgroup>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <label>
                "Clock "
                <select id="clock-pick" aria-label="Clock" on:change=handler(on_clock) disabled=flag(move || machine.with(|m| m.clock_hz.is_none()))>
                    <option value="measured" disabled=flag(move || state.profile.with(|p| p.measured_sm_clock_hz.is_none())) prop:selected=flag(move || basis.get() == ClockBasis::Measured)>
                        {text(measured_label)}
                    </option>
                    <option value="boost" disabled=flag(move || machine.with(|m| m.boost_clock_hz.is_none())) prop:selected=flag(move || basis.get() == ClockBasis::Boost)>
                        {text(move || clock_label(Clock::Boost))}
                    </option>
                    <option value="base" disabled=flag(move || machine.with(|m| m.base_clock_hz.is_none())) prop:selected=flag(move || basis.get() == ClockBasis::Base)>
                        {text(move || clock_label(Clock::Base))}
                    </option>
                    <option value="other" prop:selected=flag(move || matches!(basis.get(), ClockBasis::Given | ClockBasis::Stated))>
                        {text(move || machine.with(|m| m.clock_hz.map_or("clock not stated".to_string(), |hz| format!("{:.0} MHz", hz / 1e6))))}
                    </option>
                </select>
            </label>
            <label>
                "MHz "
                <input type="text" inputmode="decimal" class="clock-mhz" aria-label="Clock, MHz (or with a unit: 1.3GHz)"
                    prop:value=text(move || machine.with(|m| m.clock_hz.map(|hz| format!("{:.0}", hz / 1e6)).unwrap_or_default()))
                    on:change=handler(on_mhz) />
            </label>
            <label>
                "Peaks "
                <select aria-label="Peaks: data sheet or measured" on:change=handler(on_basis) disabled=flag(move || machine.with(|m| !has_two_bases(m)))>
                    <option value="empirical" prop:selected=flag(move || machine.with(|m| basis_of(m) == Basis::Empirical))>
                        "Measured where known"
                    </option>
                    <option value="theoretical" prop:selected=flag(move || machine.with(|m| basis_of(m) == Basis::Theoretical))>
                        "Data sheet"
                    </option>
                </select>
            </label>
            <details class="ceiling-editor">
                <summary>"Edit ceilings"</summary>
                <div class="ceiling-grid">
                    <For
                        each=move || machine.with(|m| m.compute.iter().enumerate().map(|(i, c)| (i, c.name.clone())).collect::<Vec<_>>())
                        key=|row| row.clone()
                        let((i, name))
                    >
                        <CeilingInput state=state i=i name=name unit="GFLOP/s" what="compute ceiling"
                            value=|m: &Machine, i| m.compute.get(i).map(|c| c.flops_per_s) set=set_compute_gflops />
                    </For>
                    <For
                        each=move || machine.with(|m| m.memory.iter().enumerate().map(|(i, l)| (i, l.name.clone())).collect::<Vec<_>>())
                        key=|row| row.clone()
                        let((i, name))
                    >
                        <CeilingInput state=state i=i name=name unit="GB/s" what="bandwidth"
                            value=|m: &Machine, i| m.memory.get(i).map(|l| l.bytes_per_s) set=set_memory_gbps />
                    </For>
                </div>
            </details>
        </div>
    }
}

/// One editable ceiling: its value in G-units (GFLOP/s or GB/s); a change replaces the
/// machine with the edited one, a bad number says so in the alert.
#[component]
fn CeilingInput(
    state: AppState,
    i: usize,
    name: String,
    unit: &'static str,
    what: &'static str,
    value: fn(&Machine, usize) -> Option<f64>,
    set: fn(&Machine, usize, f64) -> Option<Machine>,
) -> impl IntoView {
    let machine = state.machine;
    let label = name.clone();
    view! {
        <label class="ceiling">
            <span class="ceiling-name">{name.clone()}</span>
            <input
                type="number"
                min="0"
                step="any"
                inputmode="decimal"
                aria-label=format!("{name} {what}, {unit}")
                prop:value=text(move || machine.with(|m| value(m, i).map(giga_text).unwrap_or_default()))
                on:change=handler(move |ev: web_sys::Event| match parse_number(&event_target_value(&ev)).and_then(|v| machine.with_untracked(|m| set(m, i, v))) {
                    Some(m) => {
                        state.error.set(None);
                        machine.set(m);
                    }
                    None => state.error.set(Some(format!("{label} {unit}: enter a positive number"))),
                })
            />
            <span class="unit">{unit}</span>
        </label>
    }
}
