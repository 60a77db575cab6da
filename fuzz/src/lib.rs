//! Shared pieces of the fuzz targets (docs/FUZZING.md): running one importer on arbitrary
//! text (in memory and, for streaming formats, in chunks, which must agree), splitting one
//! input into several files, and building a well-formed link around an arbitrary payload so
//! that the decoder's payload reader is reached (a mutated link almost never passes the CRC).

use roofline_engine::import::chunks::ChunkFeeder;
use roofline_engine::import::stream::Collect;
use roofline_engine::import::Importer;
use roofline_engine::SourceFile;

/// Separates files in the `load_dataset` target's input.
pub const FILE_SEPARATOR: &[u8] = b"\0--8<--\0";

/// Runs `imp` on `data` as text: `detect`, `import`, and for streaming formats the chunked
/// reader, whose launches must equal the in-memory reader's.
pub fn import_target(imp: &dyn Importer, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = imp.detect(&text);
    let whole = imp.import("fuzz.csv", &text);
    let Some(mut parser) = imp.stream("fuzz.csv") else { return };
    // Chunk size from the input, so that chunk edges fall everywhere.
    let chunk = 1 + data.first().map_or(0, |&b| b as usize) % 61;
    let mut feeder = ChunkFeeder::default();
    let mut out = Collect::default();
    let mut streamed = Ok(());
    for piece in text.as_bytes().chunks(chunk) {
        streamed = feeder.push("fuzz.csv", piece, parser.as_mut(), &mut out);
        if streamed.is_err() {
            break;
        }
    }
    if streamed.is_ok() {
        streamed = feeder.finish("fuzz.csv", parser.as_mut(), &mut out).map(|_warning| ());
    }
    match (&whole, &streamed) {
        (Ok(w), Ok(())) => assert_eq!(format!("{:?}", w.launches), format!("{:?}", out.0), "streamed launches differ"),
        (Err(_), Err(_)) => {}
        _ => panic!("in-memory and streamed reads disagree: {:?} vs {:?}", whole.map(|_| ()), streamed),
    }
}

/// Splits `data` into files named `f0.csv`, `f1.csv`, … at [`FILE_SEPARATOR`].
pub fn split_files(data: &[u8]) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut rest = data;
    loop {
        let at = rest.windows(FILE_SEPARATOR.len()).position(|w| w == FILE_SEPARATOR);
        let (file, next) = match at {
            Some(i) => (&rest[..i], Some(&rest[i + FILE_SEPARATOR.len()..])),
            None => (rest, None),
        };
        files.push(SourceFile { name: format!("f{}.csv", files.len()), bytes: file.to_vec() });
        match next {
            Some(n) if files.len() < 8 => rest = n,
            _ => return files,
        }
    }
}

/// CRC-32 (IEEE, reflected 0xEDB88320), as docs/SHARING.md specifies for links.
pub fn crc32(bytes: &[u8]) -> u32 {
    crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(bytes)
}

/// Unpadded base64url (RFC 4648 §5).
pub fn base64url(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A `v1.` link whose payload is `body` and `tail` with a correct CRC: a raw deflate stream
/// that does not refer to the preset dictionary is a valid v1 stream.
pub fn link_from_payload(body: &[u8], tail: &[u8]) -> String {
    let mut framed = body.to_vec();
    framed.extend_from_slice(&crc32(&[body, tail].concat()).to_be_bytes());
    let mut packed = miniz_oxide::deflate::compress_to_vec(&framed, 1);
    packed.extend_from_slice(tail);
    format!("v1.{}", base64url(&packed))
}

/// Splits a fuzz input into body and tail: the first two bytes (big-endian) say how many
/// bytes of the end are the tail.
pub fn payload_parts(data: &[u8]) -> (&[u8], &[u8]) {
    let (n, rest) = match data {
        [a, b, rest @ ..] => (u16::from_be_bytes([*a, *b]) as usize, rest),
        _ => return (&[], &[]),
    };
    rest.split_at(rest.len() - n.min(rest.len()))
}

/// A well-formed Nsight Compute report (magic, file header, one block with a string table of
/// metric names the importers read) whose one result entry is `result`: arbitrary bytes
/// placed where a result message goes, for the `import_ncu_rep` target.
pub fn report_around_result(result: &[u8]) -> Vec<u8> {
    fn varint(mut n: u64, out: &mut Vec<u8>) {
        while n >= 0x80 {
            out.push((n as u8) | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
    }
    fn field(tag: u64, bytes: &[u8], out: &mut Vec<u8>) {
        varint(tag << 3 | 2, out);
        varint(bytes.len() as u64, out);
        out.extend_from_slice(bytes);
    }
    let names = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "launch__device_id", "device__attribute_display_name", "device__attribute_compute_capability_major"];
    let mut table = Vec::new();
    for n in names {
        field(1, n.as_bytes(), &mut table);
    }
    let mut header = vec![0x10, 0x01]; // one result
    field(4, &table, &mut header);
    let payload_len = 4 + result.len() as u64;
    varint(5 << 3, &mut header);
    varint(payload_len, &mut header);
    let mut out = b"NVR\0".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&[0x08, 0x07]);
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&(result.len() as u32).to_le_bytes());
    out.extend_from_slice(result);
    out
}
