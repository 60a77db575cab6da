//! `rocprof::agent_info::RocprofV3AgentInfo::import` (and detect) on arbitrary text.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| roofline_fuzz::import_target(&roofline_engine::import::rocprof::agent_info::RocprofV3AgentInfo, data));
