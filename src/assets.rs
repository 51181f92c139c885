//! Embedded assets: the sample skill (`assets/sample-skill/`), default config and keymap.
