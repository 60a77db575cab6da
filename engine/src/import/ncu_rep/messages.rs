//! The protobuf messages of an Nsight Compute report that this reader uses, declared for
//! `prost` by hand: only the fields the roofline needs, so everything else (SASS binaries,
//! section layouts, rule results, source views) is skipped by the decoder without being
//! kept.
//!
//! Field numbers come from walking the wire format of the sample reports (2019.5 to 2025.1;
//! docs/FORMATS.md) and were checked against the message descriptors that NVIDIA's own
//! reader library carries, and again against the schema Nsight Compute 2025.3.1 ships
//! (`extras/FileFormat/ProfilerReport.proto`: `BlockHeader` 1–5 and 7–9, `ProfileResult` 5–7,
//! 10, 11, 13, 22, 23, `ReportSessionDetails` 2, 6, 8, 11 as below), whose reports
//! (tests/fixtures/ncu-hopper) read with these declarations. Every field is `optional` here, even where Nsight Compute marks it
//! required: a report that lacks one loads with what it has, and what a roofline needs is
//! checked where it is used.

use prost::Message;

/// The message after the magic: the container's format version (7 in every report
/// seen, 2019.5 to 2025.1: it does not tell the Nsight Compute version).
#[derive(Clone, PartialEq, Message)]
pub struct FileHeader {
    #[prost(uint32, optional, tag = "1")]
    pub version: Option<u32>,
}

/// The header of a block: how many payload entries of each kind follow, their total size,
/// and optionally part of the session description and the metric-name string table.
#[derive(Clone, PartialEq, Message)]
pub struct BlockHeader {
    /// Entries holding kernel code (SASS, PTX, source): skipped.
    #[prost(uint32, optional, tag = "1")]
    pub num_sources: Option<u32>,
    /// Entries holding one profiled kernel launch each ([`ProfileResult`]), after the sources.
    #[prost(uint32, optional, tag = "2")]
    pub num_results: Option<u32>,
    /// Part of the session: blocks without results carry one piece each (device
    /// attributes, one version record, the command line, …); the pieces add up.
    #[prost(message, optional, tag = "3")]
    pub session: Option<SessionDetails>,
    /// Metric names; a result's metrics name theirs by index. Only the first block with
    /// results carries it in the reports seen; later blocks use it.
    #[prost(message, optional, tag = "4")]
    pub string_table: Option<StringTable>,
    /// Bytes of payload after this header: each entry is a little-endian `u32` length and
    /// that many bytes.
    #[prost(uint32, optional, tag = "5")]
    pub payload_bytes: Option<u32>,
    /// Results of range replay (no kernel name, no launch): counted, not read.
    #[prost(uint32, optional, tag = "7")]
    pub num_range_results: Option<u32>,
    /// Results of command-list profiling: counted, not read.
    #[prost(uint32, optional, tag = "8")]
    pub num_cmdlist_results: Option<u32>,
    /// Results of CUDA-graph profiling: counted, not read.
    #[prost(uint32, optional, tag = "9")]
    pub num_graph_results: Option<u32>,
    /// CUDA graphs described: counted, not read.
    #[prost(uint32, optional, tag = "10")]
    pub num_graphs: Option<u32>,
}

/// Metric names, indexed by [`MetricResult::name_id`].
#[derive(Clone, PartialEq, Message)]
pub struct StringTable {
    #[prost(string, repeated, tag = "1")]
    pub strings: Vec<String>,
}

/// A piece of the session's description (see [`BlockHeader::session`]).
#[derive(Clone, PartialEq, Message)]
pub struct SessionDetails {
    /// Seconds since 1970 when the report was created.
    #[prost(uint64, optional, tag = "2")]
    pub creation_time_s: Option<u64>,
    /// One entry per GPU: its name and `device__attribute_*` values.
    #[prost(message, repeated, tag = "6")]
    pub devices: Vec<DeviceAttributes>,
    /// Versions of the tools: "Nsight Compute Target" (from 2020.2), "CUDA Version",
    /// "Display Driver Version", "PerfWorks".
    #[prost(message, repeated, tag = "8")]
    pub versions: Vec<VersionInfo>,
    /// The `ncu` command line (newer versions).
    #[prost(string, optional, tag = "11")]
    pub command_line: Option<String>,
}

/// A GPU as the session describes it.
#[derive(Clone, PartialEq, Message)]
pub struct DeviceAttributes {
    /// The device index, as `launch__device_id` of a result names it.
    #[prost(uint32, optional, tag = "1")]
    pub id: Option<u32>,
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
    #[prost(message, repeated, tag = "3")]
    pub attributes: Vec<DeviceAttribute>,
}

/// One `device__attribute_*` metric of the session's device description.
#[derive(Clone, PartialEq, Message)]
pub struct DeviceAttribute {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub value: Option<MetricValue>,
}

/// A tool and its version.
#[derive(Clone, PartialEq, Message)]
pub struct VersionInfo {
    #[prost(string, optional, tag = "1")]
    pub provider: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub version: Option<String>,
}

/// One profiled kernel launch.
#[derive(Clone, PartialEq, Message)]
pub struct ProfileResult {
    #[prost(string, optional, tag = "5")]
    pub mangled_name: Option<String>,
    /// The function name without namespace, template arguments or parameters.
    #[prost(string, optional, tag = "6")]
    pub function_name: Option<String>,
    /// The demangled name, as the CSV pages print it by default.
    #[prost(string, optional, tag = "7")]
    pub demangled_name: Option<String>,
    /// In threads up to 2020.2, in blocks from 2020.3: prefer `launch__grid_dim_*`.
    #[prost(message, optional, tag = "10")]
    pub grid: Option<Dim3>,
    /// Threads per block.
    #[prost(message, optional, tag = "11")]
    pub block: Option<Dim3>,
    #[prost(message, repeated, tag = "13")]
    pub metrics: Vec<MetricResult>,
    #[prost(uint32, optional, tag = "22")]
    pub context_id: Option<u32>,
    #[prost(uint32, optional, tag = "23")]
    pub stream_id: Option<u32>,
}

/// Three sizes (x, y, z).
#[derive(Clone, Copy, PartialEq, Message)]
pub struct Dim3 {
    #[prost(uint64, optional, tag = "1")]
    pub x: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub y: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    pub z: Option<u64>,
}

/// One metric of a result: its name (an index into the string table), its value, and
/// values per instance (per SM, per DRAM channel, per opcode, …) where it has them.
#[derive(Clone, PartialEq, Message)]
pub struct MetricResult {
    #[prost(uint32, optional, tag = "1")]
    pub name_id: Option<u32>,
    #[prost(message, optional, tag = "2")]
    pub value: Option<MetricValue>,
    #[prost(message, repeated, tag = "3")]
    pub instances: Vec<InstanceValue>,
}

/// One instance of an instanced metric: what it is the value of (an SM, an opcode …) and
/// the value.
#[derive(Clone, PartialEq, Message)]
pub struct InstanceValue {
    #[prost(message, optional, tag = "1")]
    pub correlation: Option<MetricValue>,
    #[prost(message, optional, tag = "2")]
    pub value: Option<MetricValue>,
}

/// A metric value: one of the fields is set. Doubles (durations in ns, bytes, rates),
/// 64-bit integers and strings are what the samples hold; floats and 32-bit integers are
/// declared by the format too.
#[derive(Clone, PartialEq, Message)]
pub struct MetricValue {
    #[prost(string, optional, tag = "1")]
    pub text: Option<String>,
    #[prost(float, optional, tag = "2")]
    pub float: Option<f32>,
    #[prost(double, optional, tag = "3")]
    pub double: Option<f64>,
    #[prost(uint32, optional, tag = "4")]
    pub uint32: Option<u32>,
    #[prost(uint64, optional, tag = "5")]
    pub uint64: Option<u64>,
}

impl MetricValue {
    /// The value as a number, whichever numeric field holds it (`None` for text or nothing).
    pub fn number(&self) -> Option<f64> {
        self.double
            .or(self.float.map(f64::from))
            .or(self.uint64.map(|v| v as f64))
            .or(self.uint32.map(f64::from))
    }
}
