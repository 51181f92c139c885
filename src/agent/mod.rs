//! What an agent pulls from skillnav, as plain functions over a loaded [`Workspace`](workspace::Workspace): search
//! hits as pointers with sizes ([`search`]), an outline with exposure levels and layer costs
//! ([`outline`]), sections read under a size cap with a continuation cursor ([`read`]), a
//! text larger than one result cut into passages that reassemble exactly ([`passage`]),
//! the one brief pipeline with `skillnav brief`'s arguments ([`brief`]), a rendered skill
//! with its files ([`load_skill`]), SEP-2640 skill manifests with SHA-256 digests
//! ([`skills`]), which skills they may list and why the others are left out
//! ([`listable`]), skill folders as directory resources ([`skill_dirs`]) and section
//! resources ([`sections`]).
//!
//! Every rule lives here, not in a transport: the MCP server (`crate::mcp`, feature `mcp`)
//! only parses arguments and wraps these results, and the CLI shares the JSON builders
//! ([`json`]) and the brief request ([`brief::prepare`]). No async, no terminal.
//!
//! Exposure levels are a contract for everything here: `hidden` nodes are never returned
//! (not as hits, outline entries, texts, skills or resources), `explicit` ones only when
//! asked for by id (never as search hits or listed skills), `always` ones are what
//! [`instructions`] puts in front of every conversation.

pub mod brief;
pub mod error;
pub mod instructions;
pub mod json;
pub mod limits;
pub mod listable;
pub mod load_skill;
pub mod lookup;
pub mod outline;
pub mod passage;
pub mod read;
pub mod search;
pub mod sections;
pub mod skill_dirs;
pub mod skills;
pub mod workspace;
