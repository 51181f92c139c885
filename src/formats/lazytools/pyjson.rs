//! A small JSON reader that keeps numbers as their source text, so floats in vocab.json and
//! manifest.json are converted with Rust's correctly rounded `str::parse::<f64>` — the same
//! value Python's `json.loads` produces (`serde_json`'s default float parsing may differ in the
//! last bit). Strings are decoded by `serde_json` (escapes, surrogate pairs).

/// A parsed JSON value; numbers stay as their literal text.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number literal, as written.
    Num(String),
    /// A decoded string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object; keys in file order (a repeated key keeps the last value, as Python does,
    /// when looked up with [`Json::get`]).
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// The value of `key` in an object (last occurrence wins, like Python's `json.loads`).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(kv) => kv.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A number as `f64` (Python `float`/`int` value; integers are converted exactly when
    /// representable, like Python's int→float).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Num(n) => n.parse::<f64>().ok(),
            _ => None,
        }
    }

    /// A non-negative integer literal (no fraction or exponent).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) => n.parse::<u64>().ok(),
            _ => None,
        }
    }

    /// Short type name for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Num(_) => "number",
            Json::Str(_) => "string",
            Json::Arr(_) => "array",
            Json::Obj(_) => "object",
        }
    }
}

/// Parse one complete JSON document. Errors give a message with the 1-based line and column
/// (counted in characters) of the problem.
pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser { s: text, i: 0 };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err("extra data after the JSON value"));
    }
    Ok(v)
}

const MAX_DEPTH: usize = 128;

struct Parser<'a> {
    s: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn err(&self, msg: &str) -> String {
        let mut end = self.i.min(self.s.len());
        while !self.s.is_char_boundary(end) {
            end -= 1;
        }
        let before = &self.s[..end];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{msg} at line {line} column {col}")
    }

    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn lit(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::Str),
            Some(b't') => self.lit("true", Json::Bool(true)),
            Some(b'f') => self.lit("false", Json::Bool(false)),
            Some(b'n') => self.lit("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("expected a value")),
            None => Err(self.err("unexpected end of data")),
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        while matches!(
            self.peek(),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.i += 1;
        }
        let lit = &self.s[start..self.i];
        if lit.parse::<f64>().is_err() || lit.starts_with('+') || lit.ends_with('.') {
            self.i = start;
            return Err(self.err("malformed number"));
        }
        Ok(Json::Num(lit.to_string()))
    }

    fn string(&mut self) -> Result<String, String> {
        let start = self.i;
        self.i += 1;
        let bytes = self.s.as_bytes();
        loop {
            match bytes.get(self.i) {
                None => {
                    self.i = start;
                    return Err(self.err("unterminated string"));
                }
                Some(b'\\') => self.i += 2,
                Some(b'"') => {
                    self.i += 1;
                    break;
                }
                Some(_) => self.i += 1,
            }
        }
        let raw = self.s.get(start..self.i).unwrap_or("");
        serde_json::from_str::<String>(raw).map_err(|e| {
            self.err(&format!(
                "bad string ({})",
                e.to_string().split(" at line").next().unwrap_or("")
            ))
        })
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.i += 1;
        let mut out = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Json::Arr(out));
        }
        loop {
            self.ws();
            out.push(self.value(depth + 1)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Json::Arr(out));
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.i += 1;
        let mut out = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Json::Obj(out));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a string key"));
            }
            let k = self.string()?;
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':'"));
            }
            self.i += 1;
            self.ws();
            let v = self.value(depth + 1)?;
            out.push((k, v));
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Json::Obj(out));
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_objects_with_exact_floats() {
        let v = parse("{\"a\": 1.8807708468843518, \"b\": [1, \"x\\n\", null, true]}").unwrap();
        assert_eq!(v.get("a").and_then(Json::as_f64), Some(1.8807708468843518));
        assert_eq!(
            v.get("b"),
            Some(&Json::Arr(vec![
                Json::Num("1".into()),
                Json::Str("x\n".into()),
                Json::Null,
                Json::Bool(true)
            ]))
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("{\n  \"a\": tru\n}").unwrap_err();
        assert_eq!(e, "invalid literal at line 2 column 8");
        assert!(parse("{\"a\": 1} x").unwrap_err().starts_with("extra data"));
        assert!(parse("{\"a\": \"unterminated}").is_err());
        assert!(parse("[1.]").is_err());
    }
}
