//! A report's metric values as the rest of the reader sees them: a name from the string
//! table, and a number, a text, or only values per instance.

use super::messages::{MetricResult, MetricValue};

/// One metric of a result, its name resolved.
#[derive(Clone, Copy, Debug)]
pub struct Metric<'a> {
    pub name: &'a str,
    pub result: &'a MetricResult,
}

/// What a metric holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// A number in Nsight Compute's stored unit (ns for durations, bytes, cycles, per second
    /// for rates). May be NaN (the 2019.5 report's `gpc__frequency` of a 159 s kernel).
    Number(f64),
    Text(&'a str),
    /// No value of its own: only per-instance values (or nothing at all).
    None,
}

/// The value of a [`MetricValue`].
pub fn value_of(v: Option<&MetricValue>) -> Value<'_> {
    match v {
        Some(MetricValue { text: Some(t), .. }) => Value::Text(t),
        Some(v) => v.number().map_or(Value::None, Value::Number),
        None => Value::None,
    }
}

impl<'a> Metric<'a> {
    pub fn value(&self) -> Value<'a> {
        value_of(self.result.value.as_ref())
    }

    /// Summary of the numeric per-instance values: count, finite count, min, max, sum.
    pub fn instances(&self) -> Instances {
        let mut s = Instances::default();
        for i in &self.result.instances {
            s.count += 1;
            if let Value::Number(v) = value_of(i.value.as_ref()) {
                if v.is_finite() {
                    s.finite += 1;
                    s.sum += v;
                    s.min = Some(s.min.map_or(v, |m: f64| m.min(v)));
                    s.max = Some(s.max.map_or(v, |m: f64| m.max(v)));
                }
            }
        }
        s
    }
}

/// What the instances of an instanced metric add up to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Instances {
    pub count: usize,
    /// Instances with a finite numeric value (the rest: text, NaN, or nothing).
    pub finite: usize,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub sum: f64,
}
