//! Tool arguments: read from the call's JSON object by name or alias (`question` for
//! `query`, `id` for `ids`, camelCase spellings), with one-line errors naming the argument.
//! Unknown arguments are refused with the list of accepted ones.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::agent::error::{AgentError, AgentResult, err};

/// The arguments of one call and the names that were read.
pub struct Args<'a> {
    map: Option<&'a Map<String, Value>>,
    accepted: Vec<&'static str>,
}

impl<'a> Args<'a> {
    /// Wrap a call's arguments (`None` = no arguments).
    pub fn new(map: Option<&'a Map<String, Value>>) -> Self {
        Self {
            map,
            accepted: Vec::new(),
        }
    }

    fn get(&mut self, names: &[&'static str]) -> AgentResult<Option<(&'static str, &'a Value)>> {
        self.accepted.extend_from_slice(names);
        let Some(map) = self.map else { return Ok(None) };
        let found: Vec<(&'static str, &'a Value)> = names
            .iter()
            .filter_map(|n| map.get(*n).filter(|v| !v.is_null()).map(|v| (*n, v)))
            .collect();
        match found.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(*one)),
            [a, b, ..] => err(format!("pass {} or {}, not both", a.0, b.0)),
        }
    }

    /// A string argument.
    pub fn string(&mut self, names: &[&'static str]) -> AgentResult<Option<String>> {
        match self.get(names)? {
            None => Ok(None),
            Some((_, Value::String(s))) => Ok(Some(s.clone())),
            Some((n, v)) => err(format!("{n} must be a string (got {})", kind(v))),
        }
    }

    /// A non-negative integer argument (a number, or a string of digits).
    pub fn uint(&mut self, names: &[&'static str]) -> AgentResult<Option<u64>> {
        match self.get(names)? {
            None => Ok(None),
            Some((n, Value::Number(x))) => match x.as_u64() {
                Some(v) => Ok(Some(v)),
                None if x.as_f64().is_some_and(|f| f > u64::MAX as f64) => Ok(Some(u64::MAX)),
                None => err(format!(
                    "{n} must be a whole number, not a negative or fractional one (got {x})"
                )),
            },
            Some((n, Value::String(s))) => match s.trim().parse::<u64>() {
                Ok(v) => Ok(Some(v)),
                Err(_) => err(format!("{n} must be a whole number (got {s:?})")),
            },
            Some((n, v)) => err(format!("{n} must be a number (got {})", kind(v))),
        }
    }

    /// A boolean argument.
    pub fn boolean(&mut self, names: &[&'static str]) -> AgentResult<Option<bool>> {
        match self.get(names)? {
            None => Ok(None),
            Some((_, Value::Bool(b))) => Ok(Some(*b)),
            Some((n, v)) => err(format!("{n} must be true or false (got {})", kind(v))),
        }
    }

    /// A list of strings: an array of strings, or one string.
    pub fn strings(&mut self, names: &[&'static str]) -> AgentResult<Vec<String>> {
        match self.get(names)? {
            None => Ok(Vec::new()),
            Some((_, Value::String(s))) => Ok(vec![s.clone()]),
            Some((n, Value::Array(items))) => items
                .iter()
                .map(|i| match i {
                    Value::String(s) => Ok(s.clone()),
                    v => err(format!("{n} must hold strings (got {})", kind(v))),
                })
                .collect(),
            Some((n, v)) => err(format!("{n} must be a list of ids (got {})", kind(v))),
        }
    }

    /// A `{key: value}` object of strings (numbers and booleans are written as text).
    pub fn string_map(&mut self, names: &[&'static str]) -> AgentResult<BTreeMap<String, String>> {
        match self.get(names)? {
            None => Ok(BTreeMap::new()),
            Some((n, Value::Object(m))) => m
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => Ok((k.clone(), s.clone())),
                    Value::Number(x) => Ok((k.clone(), x.to_string())),
                    Value::Bool(b) => Ok((k.clone(), b.to_string())),
                    v => err(format!("{n}.{k} must be a string (got {})", kind(v))),
                })
                .collect(),
            Some((n, v)) => err(format!(
                "{n} must be an object of key: value (got {})",
                kind(v)
            )),
        }
    }

    /// Refuse arguments no getter asked for.
    pub fn finish(self) -> AgentResult<()> {
        let Some(map) = self.map else { return Ok(()) };
        let unknown: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|k| !self.accepted.contains(k))
            .collect();
        if unknown.is_empty() {
            return Ok(());
        }
        Err(AgentError(format!(
            "unknown argument(s) {} (accepted: {})",
            unknown.join(", "),
            self.accepted.join(", ")
        )))
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
