//! The record files the server was given (files, and the record files found under
//! directories) and the files uploaded to it (kept in memory, the last [`MAX_UPLOADS`]; an
//! upload made with an owner key is seen only by requests with the same key), their game
//! summaries (read once, on first use) and the games themselves. Only these files are
//! ever opened, and only regular files: a FIFO, socket or device is never opened (opening a
//! FIFO would wait for a writer forever).

use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use fanorona_data::{GameRecord, Header, RecordReader, Visited};

use crate::error::{ApiError, ApiResult};

/// The most games indexed per file: summaries beyond are not listed (the games can still be
/// opened by number).
pub const MAX_INDEXED: usize = 2_000_000;

/// Uploaded files kept at most; a newer one drops the oldest.
pub const MAX_UPLOADS: usize = 8;

/// What the listing shows of one game.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The game's number in its file, from 0.
    pub game: u64,
    /// The run index stored in the record.
    pub index: u64,
    /// White's player.
    pub white: Arc<str>,
    /// Black's player.
    pub black: Arc<str>,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'static str,
    /// The termination key.
    pub termination: &'static str,
    /// Turns played.
    pub length: usize,
}

/// One file's index.
#[derive(Debug)]
pub struct FileIndex {
    /// Its header.
    pub header: Header,
    /// Its games (at most [`MAX_INDEXED`]).
    pub games: Vec<Summary>,
    /// The byte offset of each indexed game's record.
    offsets: Vec<u64>,
    /// Where the header ends (the first record starts).
    header_end: u64,
    /// Whether more games follow than were indexed.
    pub truncated: bool,
    /// The damage that ended reading early, if any.
    pub error: Option<String>,
}

/// Where a listed file's bytes are.
#[derive(Clone)]
enum Source {
    /// A file on disk.
    File(PathBuf),
    /// An uploaded record file, in memory.
    Upload(Arc<[u8]>),
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::File(path) => f.debug_tuple("File").field(path).finish(),
            Source::Upload(bytes) => write!(f, "Upload({} bytes)", bytes.len()),
        }
    }
}

#[derive(Debug)]
struct Entry {
    name: String,
    source: Source,
    index: Option<Arc<FileIndex>>,
    /// The key of the browser that uploaded the file (`None`: every client sees it).
    owner: Option<String>,
}

impl Entry {
    /// Whether a request with `owner` (its key, if any) sees this file.
    fn seen_by(&self, owner: Option<&str>) -> bool {
        self.owner.as_deref().is_none_or(|o| Some(o) == owner)
    }
}

/// The files, by name.
#[derive(Debug)]
pub struct Catalog {
    entries: Mutex<Vec<Entry>>,
    /// Files uploaded so far (their numbers in the listing).
    uploads: std::sync::atomic::AtomicU64,
}

impl CatalogError {
    /// Whether the file is missing or not a regular file (the input's fault) rather than
    /// unreadable.
    pub fn is_bad_input(&self) -> bool {
        matches!(self.source.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::InvalidInput)
    }

    /// `path` is not a regular file (nor a directory, where one is accepted).
    fn not_regular(path: &Path, what: &str) -> CatalogError {
        CatalogError {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("not a regular file (a FIFO, socket or device?): {what}"),
            ),
        }
    }
}

/// Checks the `--save` file: absent, or a regular file (a FIFO or device cannot be appended
/// to: its games would have to be read first).
///
/// # Errors
/// [`CatalogError`] for anything else, or a file whose type cannot be read.
pub fn check_save(path: &Path) -> Result<(), CatalogError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(_) => Err(CatalogError::not_regular(path, "games are saved to a record file")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(CatalogError { path: path.to_path_buf(), source }),
    }
}

/// Why the files given cannot be served.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct CatalogError {
    /// The file or directory.
    pub path: PathBuf,
    /// The reason.
    #[source]
    pub source: std::io::Error,
}

impl Catalog {
    /// The catalog of `paths`: files as given, directories searched for record files
    /// (recognised by their magic bytes; hidden entries, `.part`/`.tmp` files and whatever is
    /// not a regular file skipped; each directory and file visited once, however many
    /// symbolic links lead to it).
    ///
    /// # Errors
    /// When a path does not exist, is neither a regular file nor a directory (a FIFO), or a
    /// directory cannot be listed.
    pub fn new(paths: &[PathBuf]) -> Result<Catalog, CatalogError> {
        let mut files = Vec::new();
        // Each directory walked and each file found listed once, however many links lead there.
        let (mut dirs, mut found_files) = (Visited::default(), Visited::default());
        for p in paths {
            let meta = std::fs::metadata(p).map_err(|source| CatalogError { path: p.clone(), source })?;
            if meta.is_dir() {
                let mut found = Vec::new();
                fanorona_data::find_record_files(p, &mut dirs, &mut found)
                    .map_err(|e| CatalogError { path: e.path, source: e.source })?;
                files.extend(
                    found.into_iter().filter(|f| std::fs::metadata(f).is_ok_and(|m| found_files.first(&m))),
                );
            } else if meta.is_file() {
                files.push(p.clone());
            } else {
                return Err(CatalogError::not_regular(p, "give record files or directories"));
            }
        }
        let mut entries: Vec<Entry> = Vec::new();
        for path in files {
            let name = path.display().to_string();
            if !entries.iter().any(|e| e.name == name) {
                entries.push(Entry { name, source: Source::File(path), index: None, owner: None });
            }
        }
        Ok(Catalog { entries: Mutex::new(entries), uploads: std::sync::atomic::AtomicU64::new(0) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The file names, in order.
    pub fn names(&self) -> Vec<String> {
        self.lock().iter().map(|e| e.name.clone()).collect()
    }

    /// The names of the files a request with `owner` (its key, if any) sees, in order: the
    /// files given to the server, the uploads without an owner and its own.
    pub fn names_for(&self, owner: Option<&str>) -> Vec<String> {
        self.lock().iter().filter(|e| e.seen_by(owner)).map(|e| e.name.clone()).collect()
    }

    /// 404, as for a file never given, unless a request with `owner` sees file `name`.
    ///
    /// # Errors
    /// 404 for a name not listed, or an upload of another owner.
    pub fn check_seen(&self, name: &str, owner: Option<&str>) -> ApiResult<()> {
        match self.lock().iter().find(|e| e.name == name) {
            Some(e) if e.seen_by(owner) => Ok(()),
            _ => Err(not_listed(name)),
        }
    }

    /// Adds a file (the save file) if it is not listed, and forgets its index.
    pub fn refresh(&self, path: &Path) {
        let name = path.display().to_string();
        let mut entries = self.lock();
        match entries.iter_mut().find(|e| e.name == name) {
            Some(e) => e.index = None,
            None => entries.push(Entry {
                name,
                source: Source::File(path.to_path_buf()),
                index: None,
                owner: None,
            }),
        }
    }

    /// Lists `bytes`, a whole record file uploaded as `file_name`, as `upload N: file_name`
    /// (dropping the oldest upload beyond [`MAX_UPLOADS`]), seen only by requests with `owner`
    /// when one is given; its listed name and game count.
    ///
    /// # Errors
    /// 400 for bytes that are not a whole, undamaged record file, or one without games.
    pub fn add_upload(
        &self,
        file_name: &str,
        bytes: Vec<u8>,
        owner: Option<&str>,
    ) -> ApiResult<(String, usize)> {
        let bytes: Arc<[u8]> = Arc::from(bytes);
        let reader =
            RecordReader::new(&bytes[..], Path::new(file_name)).map_err(|e| ApiError::bad(format!("{e}")))?;
        let ix = index_of(reader);
        if let Some(e) = &ix.error {
            return Err(ApiError::bad(format!("{file_name}: damaged record file: {e}")));
        }
        if ix.games.is_empty() {
            return Err(ApiError::bad(format!("{file_name}: there are no games in it")));
        }
        // Every game against the rules (GameRecord::validate, the check of every way a game
        // enters: PGN, import, rescore, validate): a result the rules contradict is refused.
        let reader =
            RecordReader::new(&bytes[..], Path::new(file_name)).map_err(|e| ApiError::bad(format!("{e}")))?;
        for (n, rec) in reader.enumerate() {
            let rec = rec.map_err(|e| ApiError::bad(format!("{file_name}: damaged record file: {e}")))?;
            rec.validate().map_err(|e| ApiError::bad(format!("{file_name}: game {n}: {e}")))?;
        }
        let games = ix.games.len();
        let n = self.uploads.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let name = format!("upload {n}: {file_name}");
        let mut entries = self.lock();
        let uploaded = |e: &Entry| matches!(e.source, Source::Upload(_));
        while entries.iter().filter(|e| uploaded(e)).count() >= MAX_UPLOADS {
            let Some(oldest) = entries.iter().position(uploaded) else { break };
            entries.remove(oldest);
        }
        entries.push(Entry {
            name: name.clone(),
            source: Source::Upload(bytes),
            index: Some(Arc::new(ix)),
            owner: owner.map(str::to_string),
        });
        Ok((name, games))
    }

    fn source_of(&self, name: &str) -> ApiResult<Source> {
        self.lock().iter().find(|e| e.name == name).map(|e| e.source.clone()).ok_or_else(|| not_listed(name))
    }

    /// The index of file `name`, read on first use.
    ///
    /// # Errors
    /// 404 for a name not given; 400 for a file that is not a record file.
    pub fn index(&self, name: &str) -> ApiResult<Arc<FileIndex>> {
        let source = self.source_of(name)?;
        if let Some(ix) = self.lock().iter().find(|e| e.name == name).and_then(|e| e.index.clone()) {
            return Ok(ix);
        }
        let ix = Arc::new(match &source {
            Source::File(path) => index_of(open(name, path)?),
            Source::Upload(bytes) => index_of(
                RecordReader::new(&bytes[..], Path::new(name)).map_err(|e| ApiError::bad(e.to_string()))?,
            ),
        });
        if let Some(e) = self.lock().iter_mut().find(|e| e.name == name) {
            e.index = Some(Arc::clone(&ix));
        }
        Ok(ix)
    }

    /// Game `game` (from 0) of file `name`: read at its offset when indexed, else by reading
    /// the file up to it.
    ///
    /// # Errors
    /// 404 for an unknown file or a game number past the end; 400 for a damaged file.
    pub fn game(&self, name: &str, game: u64) -> ApiResult<GameRecord> {
        let ix = self.index(name)?;
        let source = self.source_of(name)?;
        let bad = |e: fanorona_data::DataError| ApiError::bad(format!("file {name:?}: {e}"));
        let first = |rec: Option<Result<GameRecord, fanorona_data::DataError>>| match rec {
            Some(rec) => rec.map_err(bad),
            None => Err(ApiError::bad(format!("file {name:?} changed since it was listed"))),
        };
        if let Some(&offset) = usize::try_from(game).ok().and_then(|g| ix.offsets.get(g)) {
            let path = match &source {
                Source::File(path) => path,
                Source::Upload(bytes) => {
                    let head = bytes.get(..ix.header_end as usize).unwrap_or_default();
                    let rest = bytes.get(offset as usize..).unwrap_or_default();
                    return first(
                        RecordReader::new(head.chain(rest), Path::new(name)).map_err(bad)?.read_record(),
                    );
                }
            };
            let io = |e: std::io::Error| ApiError::internal(format!("file {name:?}: {e}"));
            regular(name, path)?;
            let mut file = std::fs::File::open(path).map_err(io)?;
            let mut head = Vec::new();
            (&mut file).take(ix.header_end).read_to_end(&mut head).map_err(io)?;
            file.seek(SeekFrom::Start(offset)).map_err(io)?;
            let mut reader = RecordReader::new(std::io::Cursor::new(head).chain(BufReader::new(file)), path)
                .map_err(bad)?;
            return first(reader.read_record());
        }
        if !ix.truncated {
            let n = ix.games.len();
            return Err(ApiError::not_found(format!(
                "game {game}: file {name:?} has {n} games (numbered from 0)"
            )));
        }
        let Source::File(path) = source else {
            return Err(ApiError::not_found(format!("game {game}: file {name:?} has fewer games")));
        };
        let reader = open(name, &path)?;
        let mut count = 0u64;
        for rec in reader {
            let rec = rec.map_err(bad)?;
            if count == game {
                return Ok(rec);
            }
            count += 1;
        }
        Err(ApiError::not_found(format!("game {game}: file {name:?} has {count} games (numbered from 0)")))
    }
}

/// 404 for a file not listed.
fn not_listed(name: &str) -> ApiError {
    ApiError::not_found(format!(
        "file {name:?} is not one of the files this server was given (or was uploaded to it lately)"
    ))
}

/// 400 unless `path` is a regular file (so that opening it cannot wait forever).
fn regular(name: &str, path: &Path) -> ApiResult<()> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            Err(ApiError::bad(format!("file {name:?} is no longer a regular file")))
        }
        _ => Ok(()),
    }
}

fn open(name: &str, path: &Path) -> ApiResult<RecordReader> {
    regular(name, path)?;
    RecordReader::open(path).map_err(|e| {
        if e.is_bad_input() {
            ApiError::bad(format!("file {name:?}: {e}"))
        } else {
            ApiError::internal(format!("file {name:?}: {e}"))
        }
    })
}

/// The index of the records `reader` reads (damage ends it, with `error`).
fn index_of<R: Read>(mut reader: RecordReader<R>) -> FileIndex {
    let header = reader.header().clone();
    let header_end = reader.offset();
    let (mut games, mut offsets) = (Vec::new(), Vec::new());
    let mut error = None;
    let mut truncated = false;
    let mut names: Vec<Arc<str>> = Vec::new();
    let mut intern = |s: &str| -> Arc<str> {
        if let Some(a) = names.iter().find(|a| ***a == *s) {
            return Arc::clone(a);
        }
        let a: Arc<str> = Arc::from(s);
        if names.len() < 1024 {
            names.push(Arc::clone(&a));
        }
        a
    };
    loop {
        if games.len() >= MAX_INDEXED {
            truncated = true;
            break;
        }
        let offset = reader.offset();
        let rec = match reader.read_record() {
            None => break,
            Some(Ok(r)) => r,
            Some(Err(e)) => {
                error = Some(e.to_string());
                break;
            }
        };
        offsets.push(offset);
        games.push(Summary {
            game: games.len() as u64,
            index: rec.index,
            white: intern(&rec.white),
            black: intern(&rec.black),
            result: rec.outcome.result_str(),
            termination: crate::api::views::termination_slug(rec.outcome.termination),
            length: rec.turns.len(),
        });
    }
    FileIndex { header, games, offsets, header_end, truncated, error }
}
