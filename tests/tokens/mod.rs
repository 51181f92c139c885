//! Token counts: the bpe-openai counts equal tiktoken's on real files, and the persistent
//! count cache changes no count.

mod cache;
mod parity;
