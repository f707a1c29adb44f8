//! The framed binary container and atomic writes.
//!
//! Every binary file bebete writes has the same frame, so that a truncated,
//! corrupt, foreign or too-new file is recognised before anything is trusted:
//!
//! ```text
//! magic      8 bytes   b"BEBETE" + 2 bytes naming the kind ("GN", "CK")
//! version    u16 LE    format version of that kind
//! header_len u32 LE
//! header     postcard  game, rules, provenance, … (serde)
//! payload_len u64 LE
//! payload    raw bytes the gene tables, never serialised gene by gene
//! checksum   u32 LE    CRC-32 of every byte above
//! ```
//!
//! Writes go to a temporary file in the same directory, are synced, then
//! renamed over the target, so a crash leaves either the old file or the new.

use serde::{Serialize, de::DeserializeOwned};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const PREFIX_LEN: usize = 8 + 2 + 4;

/// What is wrong with a file.
#[derive(Debug, thiserror::Error)]
pub enum FileProblem {
    #[error("{0}")]
    /// The file could not be read or written.
    Io(#[from] io::Error),
    #[error("not a bebete {file} file (it does not start with the {magic:?} tag)")]
    /// Not a file of this kind.
    Foreign {
        /// The file expected, in words (`checkpoint`).
        file: &'static str,
        /// The tag it should start with.
        magic: String,
    },
    #[error(
        "format version {found} is newer than this bebete reads (up to {supported}); upgrade bebete"
    )]
    /// A format newer than this bebete reads.
    Newer {
        /// The file's format.
        found: u16,
        /// The newest format read.
        supported: u16,
    },
    #[error("truncated: {needed} bytes expected, only {found} present")]
    /// Shorter than its header says.
    Truncated {
        /// Bytes expected.
        needed: u64,
        /// Bytes present.
        found: u64,
    },
    #[error("corrupt: checksum mismatch (stored {stored:08x}, computed {computed:08x})")]
    /// The checksum does not match.
    Checksum {
        /// The checksum stored.
        stored: u32,
        /// The checksum of the bytes.
        computed: u32,
    },
    #[error("corrupt: {0}")]
    /// The bytes do not decode.
    Malformed(String),
    #[error(
        "holds {} genome, but {expected} was asked for",
        super::with_article(found)
    )]
    /// A genome of another game than the one asked for.
    OtherGame {
        /// The game in the file.
        found: String,
        /// The game asked for.
        expected: String,
    },
    #[error("is a directory without a {wanted}: name a file, or a run directory")]
    /// A directory where a file was due.
    Directory {
        /// The file looked for in it.
        wanted: &'static str,
    },
    /// A checkpoint of an older format: before 1.0 a run is resumed by the
    /// bebete that wrote it (genome files of every format stay readable).
    #[error(
        "a checkpoint of format {found}, written by an older bebete; this one resumes format {supported} only (before 1.0 a run is resumed by the version that wrote it): finish the run with that version, or start it again with `bebete evolve`; its best.genome stays readable"
    )]
    OlderCheckpoint {
        /// The checkpoint's format.
        found: u16,
        /// The format this bebete resumes.
        supported: u16,
    },
    /// A FIFO, a device (`/dev/zero`) or a socket: refused before it is
    /// opened, so that nothing waits on a writer or reads without end.
    #[error("is not a regular file (a FIFO, a device or a socket): name a file bebete wrote")]
    NotAFile,
    /// A file written for a game from outside this crate (an outside
    /// `GameId`), read where only the built-in games are known.
    #[error(
        "holds {} of {game}, a game from outside bebete: the program that evolved it reads it",
        super::with_article(file)
    )]
    Outside {
        /// The game's own name.
        game: String,
        /// The file, in words (`genome`).
        file: &'static str,
    },
}

/// A file that could not be read or written, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct FileError {
    pub(crate) path: PathBuf,
    /// What is wrong.
    pub problem: FileProblem,
}

impl FileError {
    /// The problem `problem` with the file at `path`.
    pub fn new(path: &Path, problem: impl Into<FileProblem>) -> Self {
        FileError {
            path: path.to_path_buf(),
            problem: problem.into(),
        }
    }
}

/// Removes from `dir` the temporary files [`write_atomic_with`] leaves
/// when its process is killed mid-write (`.NAME.tmp-PID`); call it only
/// where this process is the directory's one writer (a run's lock held).
/// Returns how many it removed.
pub fn remove_temporaries(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let leftover = |name: &str| {
        name.strip_prefix('.')
            .and_then(|rest| rest.rsplit_once(".tmp-"))
            .is_some_and(|(file, pid)| {
                !file.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
            })
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| leftover(&e.file_name().to_string_lossy()))
        .filter(|e| fs::remove_file(e.path()).is_ok())
        .count()
}

/// Opens `path` for reading only if it is a regular file: a FIFO, a
/// device or a socket is refused before it is opened (opening a FIFO
/// waits for a writer; `/dev/zero` never ends), and the handle is checked
/// again once open.
pub fn open_regular(path: &Path) -> Result<fs::File, FileError> {
    let regular = |meta: fs::Metadata| {
        if meta.is_file() {
            Ok(())
        } else {
            Err(FileError::new(path, FileProblem::NotAFile))
        }
    };
    regular(fs::metadata(path).map_err(|e| FileError::new(path, e))?)?;
    let file = fs::File::open(path).map_err(|e| FileError::new(path, e))?;
    regular(file.metadata().map_err(|e| FileError::new(path, e))?)?;
    Ok(file)
}

/// Reads a whole regular file ([`open_regular`]), no more than the size it
/// had when opened: a file that grows meanwhile is read as it was.
pub fn read_regular(path: &Path) -> Result<Vec<u8>, FileError> {
    use std::io::Read;
    let file = open_regular(path)?;
    let len = file.metadata().map_err(|e| FileError::new(path, e))?.len();
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(len)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::new(path, e))?;
    Ok(bytes)
}

/// A file format: its magic tag, current version and its name in words.
#[derive(Clone, Copy, Debug)]
pub struct Framed {
    /// The tag a file of this kind starts with.
    pub magic: [u8; 8],
    pub(crate) version: u16,
    pub(crate) file: &'static str,
}

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Writes whatever `fill` writes to `path` atomically: to a temporary file
/// in the same directory, synced, then renamed over `path` (and the
/// directory synced), so a crash leaves the old file or the new, never a mix.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut io::BufWriter<&mut fs::File>) -> io::Result<()>,
) -> Result<(), FileError> {
    let fail = |e: io::Error| FileError::new(path, e);
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        fs::create_dir_all(dir).map_err(fail)?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        let mut out = io::BufWriter::new(&mut file);
        fill(&mut out)?;
        out.flush()?;
        drop(out);
        file.sync_all()?;
        fs::rename(&tmp, path)?;
        if let Some(dir) = dir {
            // Make the rename itself durable; not every platform allows it.
            let _ = fs::File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(fail)
}

/// Frames `header` and `payload` as `format` and writes them atomically.
pub fn write_framed<H: Serialize>(
    path: &Path,
    format: Framed,
    header: &H,
    payload: &[u8],
) -> Result<(), FileError> {
    write_framed_streamed(path, format, header, |out| out.write_all(payload))
}

/// [`write_framed`] with a payload that `fill` writes as it makes it, its
/// length known only at the end: the frame's prefix is written last, over
/// a placeholder of the same size, and the checksum is the prefix's CRC
/// combined with the payload's, so the payload never sits whole in memory
/// (a checkpoint of 100 Connect-Four genomes deflates piece by piece
/// straight into the file).
pub fn write_framed_streamed<H: Serialize>(
    path: &Path,
    format: Framed,
    header: &H,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FileError> {
    use std::io::{Seek, SeekFrom};
    let header = postcard::to_allocvec(header)
        .map_err(|e| FileError::new(path, FileProblem::Malformed(format!("header: {e}"))))?;
    let prefix = |payload_len: u64| {
        let mut prefix = Vec::with_capacity(PREFIX_LEN + header.len() + 8);
        prefix.extend_from_slice(&format.magic);
        prefix.extend_from_slice(&format.version.to_le_bytes());
        prefix.extend_from_slice(&(header.len() as u32).to_le_bytes());
        prefix.extend_from_slice(&header);
        prefix.extend_from_slice(&payload_len.to_le_bytes());
        prefix
    };
    write_atomic_with(path, |out| {
        out.write_all(&prefix(0))?;
        let mut payload = Counted {
            inner: &mut *out,
            crc: crc32fast::Hasher::new(),
            len: 0,
        };
        fill(&mut payload)?;
        let (payload_crc, len) = (payload.crc, payload.len);
        let prefix = prefix(len);
        let mut crc = crc32fast::Hasher::new();
        crc.update(&prefix);
        crc.combine(&payload_crc);
        out.seek(SeekFrom::Start(0))?;
        out.write_all(&prefix)?;
        out.seek(SeekFrom::End(0))?;
        out.write_all(&crc.finalize().to_le_bytes())
    })
}

/// A writer that passes bytes on, counting them and summing their CRC.
struct Counted<W> {
    inner: W,
    crc: crc32fast::Hasher,
    len: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The frame of a file written by [`write_framed`], read without its
/// payload: the version, the header's bytes and the payload's length,
/// after checking the tag, the version and that the file's size is what
/// the frame promises (the checksum is not checked: that needs every
/// byte). Cheap for a file of any size; a header over 64 KiB is refused.
pub fn peek_framed(path: &Path, format: Framed) -> Result<(u16, Vec<u8>, u64), FileError> {
    peek_framed_in(open_regular(path)?, path, format)
}

/// [`peek_framed`] of a file already open (a reader that opens files its
/// own way, checked on the handle: the server); `path` names it in errors.
pub fn peek_framed_in(
    mut file: fs::File,
    path: &Path,
    format: Framed,
) -> Result<(u16, Vec<u8>, u64), FileError> {
    use std::io::Read;
    let fail = |p: FileProblem| FileError::new(path, p);
    let found = file.metadata().map_err(|e| FileError::new(path, e))?.len();
    let mut prefix = [0u8; PREFIX_LEN];
    // Up to the whole prefix, fewer only at the end of the file.
    let mut read = 0;
    while read < PREFIX_LEN {
        match file.read(&mut prefix[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(FileError::new(path, e)),
        }
    }
    let seen = &prefix[..read.min(8)];
    if seen != &format.magic[..seen.len()] {
        return Err(fail(FileProblem::Foreign {
            file: format.file,
            magic: String::from_utf8_lossy(&format.magic).into_owned(),
        }));
    }
    let truncated = |needed: u64| FileProblem::Truncated { needed, found };
    if found < PREFIX_LEN as u64 {
        return Err(fail(truncated(PREFIX_LEN as u64)));
    }
    let version = u16::from_le_bytes([prefix[8], prefix[9]]);
    if version > format.version {
        return Err(fail(version_problem(version, format.version)));
    }
    let header_len = u32::from_le_bytes(prefix[10..14].try_into().expect("4 bytes")) as u64;
    if header_len > MAX_HEADER {
        return Err(fail(damaged_header_length(header_len, MAX_HEADER)));
    }
    let header_end = PREFIX_LEN as u64 + header_len;
    if found < header_end + 8 {
        return Err(fail(truncated(header_end + 8)));
    }
    let mut header = vec![0u8; header_len as usize];
    let mut payload_len = [0u8; 8];
    file.read_exact(&mut header)
        .and_then(|()| file.read_exact(&mut payload_len))
        .map_err(|e| FileError::new(path, e))?;
    let payload_len = u64::from_le_bytes(payload_len);
    if payload_len > MAX_PAYLOAD {
        return Err(fail(damaged_length(payload_len)));
    }
    let total = (header_end + 8)
        .saturating_add(payload_len)
        .saturating_add(4);
    if found < total {
        return Err(fail(truncated(total)));
    }
    if found > total {
        return Err(fail(FileProblem::Malformed(format!(
            "{} unexpected bytes after the end",
            found - total
        ))));
    }
    Ok((version, header, payload_len))
}

/// No file bebete writes has a payload of a terabyte: a length beyond it
/// is a damaged field, not a file cut short.
const MAX_PAYLOAD: u64 = 1 << 40;

/// The most header bytes a genome announces ([`peek_framed`] reads no
/// more), and the most any file does (a checkpoint's header holds its
/// stats rows).
const MAX_HEADER: u64 = 64 * 1024;
const MAX_ANY_HEADER: u64 = 1 << 28;

/// A header length past what bebete writes: damage, not a file cut short.
fn damaged_header_length(header_len: u64, most: u64) -> FileProblem {
    FileProblem::Malformed(format!(
        "the header's length field reads {header_len} bytes, more than bebete writes (at most {most}): the header is damaged"
    ))
}

/// A version read from a file: newer than this bebete, or so far past any
/// version that the field is damaged (random bytes after the tag).
fn version_problem(found: u16, supported: u16) -> FileProblem {
    if found > supported.saturating_add(100) {
        FileProblem::Malformed(format!(
            "the format version field reads {found}, no version bebete has written (this one reads up to {supported}): the header is damaged"
        ))
    } else {
        FileProblem::Newer { found, supported }
    }
}

fn damaged_length(payload_len: u64) -> FileProblem {
    FileProblem::Malformed(format!(
        "the payload's length field reads {payload_len} bytes, more than any file bebete writes: the header is damaged"
    ))
}

/// Reads a file written by [`write_framed`], checking every layer.
pub fn read_framed<H: DeserializeOwned>(
    path: &Path,
    format: Framed,
) -> Result<(H, Vec<u8>), FileError> {
    let bytes = read_regular(path)?;
    decode_framed(bytes, format).map_err(|p| FileError::new(path, p))
}

/// Checks every layer of a framed file's bytes and returns its header and
/// payload (the payload reuses the buffer: no second copy).
pub fn decode_framed<H: DeserializeOwned>(
    bytes: Vec<u8>,
    format: Framed,
) -> Result<(H, Vec<u8>), FileProblem> {
    decode_framed_versions(bytes, format, |_, header| postcard::from_bytes(header))
}

/// [`decode_framed`] for a checkpoint, which before 1.0 is read only by
/// the format that wrote it: an older one, whole, is refused with what to
/// do ([`FileProblem::OlderCheckpoint`]); `parse` reads the header of the
/// current format.
pub(crate) fn decode_checkpoint<H>(
    bytes: Vec<u8>,
    format: Framed,
    parse: impl FnOnce(&[u8]) -> postcard::Result<H>,
) -> Result<(H, Vec<u8>), FileProblem> {
    let (header, payload) = decode_framed_versions(bytes, format, |version, header| {
        if version < format.version {
            return Ok(Err(FileProblem::OlderCheckpoint {
                found: version,
                supported: format.version,
            }));
        }
        parse(header).map(Ok)
    })?;
    Ok((header?, payload))
}

/// [`decode_framed`] for a kind whose header changed between versions:
/// `parse` gets the file's version and the header bytes.
pub fn decode_framed_versions<H>(
    mut bytes: Vec<u8>,
    format: Framed,
    parse: impl FnOnce(u16, &[u8]) -> postcard::Result<H>,
) -> Result<(H, Vec<u8>), FileProblem> {
    let found = bytes.len() as u64;
    let magic_seen = &bytes[..bytes.len().min(8)];
    if magic_seen != &format.magic[..magic_seen.len()] {
        return Err(FileProblem::Foreign {
            file: format.file,
            magic: String::from_utf8_lossy(&format.magic).into_owned(),
        });
    }
    let need = |needed: usize| -> Result<(), FileProblem> {
        if bytes.len() < needed {
            Err(FileProblem::Truncated {
                needed: needed as u64,
                found,
            })
        } else {
            Ok(())
        }
    };
    need(PREFIX_LEN)?;
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version > format.version {
        return Err(version_problem(version, format.version));
    }
    let header_len = u32::from_le_bytes(bytes[10..14].try_into().expect("4 bytes")) as usize;
    if header_len as u64 > MAX_ANY_HEADER {
        return Err(damaged_header_length(header_len as u64, MAX_ANY_HEADER));
    }
    let header_end = PREFIX_LEN + header_len;
    need(header_end + 8)?;
    let payload_len = u64::from_le_bytes(
        bytes[header_end..header_end + 8]
            .try_into()
            .expect("8 bytes"),
    );
    let payload_start = header_end + 8;
    if payload_len > MAX_PAYLOAD {
        return Err(damaged_length(payload_len));
    }
    let total = (payload_start as u64)
        .saturating_add(payload_len)
        .saturating_add(4);
    if found < total {
        return Err(FileProblem::Truncated {
            needed: total,
            found,
        });
    }
    if found > total {
        return Err(FileProblem::Malformed(format!(
            "{} unexpected bytes after the end",
            found - total
        )));
    }
    let body_end = bytes.len() - 4;
    let stored = u32::from_le_bytes(bytes[body_end..].try_into().expect("4 bytes"));
    let computed = crc32fast::hash(&bytes[..body_end]);
    if stored != computed {
        return Err(FileProblem::Checksum { stored, computed });
    }
    let header = parse(version, &bytes[PREFIX_LEN..header_end])
        .map_err(|e| FileProblem::Malformed(format!("unreadable header: {e}")))?;
    bytes.truncate(body_end);
    bytes.drain(..payload_start);
    Ok((header, bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_temporaries_of_killed_writes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            ".best.genome.tmp-4242",
            ".gen-000010.ckpt.tmp-7",
            ".stats.csv.tmp-",
            ".tmp-12",
            "best.genome",
            "notes.tmp-12",
            ".hidden",
        ];
        for name in names {
            fs::write(dir.path().join(name), b"x").unwrap();
        }
        assert_eq!(remove_temporaries(dir.path()), 2);
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                ".hidden",
                ".stats.csv.tmp-",
                ".tmp-12",
                "best.genome",
                "notes.tmp-12"
            ]
        );
    }

    use super::*;

    const TEST: Framed = Framed {
        magic: *b"BEBETETS",
        version: 1,
        file: "test",
    };

    /// A damaged length or version field is called damage, not a file cut
    /// short or one from a newer bebete.
    #[test]
    fn damaged_header_fields_are_named_as_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let bytes = fs::read(&path).unwrap();
        let mut long = bytes.clone();
        long[10..14].copy_from_slice(&u32::MAX.to_le_bytes());
        let mut version = bytes.clone();
        version[8..10].copy_from_slice(&32647u16.to_le_bytes());
        for (damaged, said) in [
            (long, "the header's length field reads 4294967295 bytes"),
            (version, "the format version field reads 32647, no version"),
        ] {
            fs::write(&path, &damaged).unwrap();
            let peeked = peek_framed(&path, TEST).unwrap_err().to_string();
            let read = read_framed::<(String, u32)>(&path, TEST)
                .unwrap_err()
                .to_string();
            for message in [peeked, read] {
                assert!(
                    message.contains(said) && message.contains("damaged"),
                    "{message}"
                );
            }
        }
        let mut newer = bytes;
        newer[8..10].copy_from_slice(&2u16.to_le_bytes());
        fs::write(&path, &newer).unwrap();
        let message = read_framed::<(String, u32)>(&path, TEST)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("newer than this bebete reads"),
            "{message}"
        );
    }

    /// `/dev/zero` and a FIFO are refused before anything is read.
    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_read() {
        let message = read_regular(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(message.contains("is not a regular file"), "{message}");
        let dir = tempfile::tempdir().unwrap();
        let message = read_regular(dir.path()).unwrap_err().to_string();
        assert!(message.contains("is not a regular file"), "{message}");
    }

    fn sample(dir: &Path) -> PathBuf {
        let path = dir.join("x.bin");
        write_framed(&path, TEST, &("hello".to_string(), 7u32), &[1, 2, 3, 4]).unwrap();
        path
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let before = fs::read(&path).unwrap();
        let err = write_atomic_with(&path, |out| {
            out.write_all(b"half of a new file")?;
            Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "no space left on device",
            ))
        })
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("x.bin") && err.contains("no space left"),
            "{err}"
        );
        assert_eq!(fs::read(&path).unwrap(), before);
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        // A directory that is a file cannot be written to at all.
        let blocked = path.join("inside.bin");
        assert!(write_atomic(&blocked, b"x").is_err());
    }

    #[test]
    fn round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let ((s, n), payload): ((String, u32), Vec<u8>) = read_framed(&path, TEST).unwrap();
        assert_eq!((s.as_str(), n, payload), ("hello", 7, vec![1, 2, 3, 4]));
    }

    #[test]
    fn every_truncation_and_every_flipped_byte_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = fs::read(sample(dir.path())).unwrap();
        for len in 0..bytes.len() {
            let r: Result<((String, u32), Vec<u8>), _> = decode_framed(bytes[..len].to_vec(), TEST);
            assert!(r.is_err(), "truncated to {len} bytes was accepted");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            let r: Result<((String, u32), Vec<u8>), _> = decode_framed(bad, TEST);
            assert!(r.is_err(), "flipping byte {i} was accepted");
        }
    }

    /// A damaged length field is named as such, not as a file short of
    /// eighteen quintillion bytes.
    #[test]
    fn a_damaged_length_field_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let mut bytes = fs::read(&path).unwrap();
        let header_len = u32::from_le_bytes(bytes[10..14].try_into().unwrap()) as usize;
        let at = PREFIX_LEN + header_len;
        bytes[at + 7] = 0xff;
        fs::write(&path, &bytes).unwrap();
        for err in [
            decode_framed::<(String, u32)>(bytes, TEST)
                .unwrap_err()
                .to_string(),
            peek_framed(&path, TEST).unwrap_err().to_string(),
        ] {
            assert!(
                err.contains("length field")
                    && err.contains("damaged")
                    && !err.contains("truncated"),
                "{err}"
            );
        }
    }

    #[test]
    fn a_newer_version_and_a_foreign_file_say_so() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = fs::read(sample(dir.path())).unwrap();
        bytes[8] = 9;
        let err = decode_framed::<(String, u32)>(bytes, TEST).unwrap_err();
        assert!(err.to_string().contains("newer"), "{err}");
        let err = decode_framed::<(String, u32)>(b"PNG\x89 something".to_vec(), TEST).unwrap_err();
        assert!(err.to_string().contains("not a bebete test file"), "{err}");
    }
}
