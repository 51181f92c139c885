//! Clipboard chain (docs/DESIGN.md §5; the one policy every front end copies by is
//! [`deliver`]): native (arboard; on X11 kept served after exit by a
//! detached `skillnav __clipboard-serve` child) → OSC 52 (for SSH/tmux; never confirmed) → a
//! file. Over SSH (`$SSH_TTY`/`$SSH_CONNECTION`) with a terminal attached and no forwarded
//! X display, the native clipboard would be the remote machine's: OSC 52 goes first. Inside
//! tmux the OSC 52 form follows tmux's options ([`TmuxPath`]). Honest outcomes, each shown
//! by [`status_line`]. No terminal-library types: the CLI uses it too.

mod chain;
mod file;
mod native;
mod osc52;
mod policy;
mod status;

pub use chain::{
    CopyOptions, CopyOutcome, DEFAULT_OSC52_LIMIT, copy, copy_native, copy_with, native_is_remote,
};
pub use file::{default_dir as default_save_dir, save as save_to_file, save_as as save_to_file_as};
pub use native::{SERVE_ARG, serve_main};
pub use osc52::{TmuxPath, osc52_sequence};
pub use policy::{Delivered, Route, deliver};
pub use status::{status_line, status_line_with_limit};
