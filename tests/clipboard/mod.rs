//! The clipboard chain in child processes: OSC 52, file fallback, X11 serving.

mod chain;
mod commands;
mod x11;
