//! Net files: Stockfish's `.nnue` format, read with bounds checks and typed
//! errors naming what failed and at which offset ([`reader`]) and written
//! ([`writer`], for tests and tools); its LEB128 blocks (decoded eight bytes
//! at a time with SSSE3); and bullet's headerless files of tensors
//! ([`bullet`]), and the CBNF header Stormphrax puts before them ([`cbnf`]).

pub mod bullet;
pub mod cbnf;
pub mod leb128;
pub mod reader;
pub mod writer;
