//! End to end: the real binary in a pseudo-terminal.

mod pty;
