//! Values the user types for curation, parsed once for every front end: a token budget
//! (`12k`, `none`) and `NAME=value` skill variables.

/// Parse a budget typed by the user: `12000`, `12k`, `1.5k`, `2m`, `1g`, `12,000`; `0`
/// (`0k`, …), `none` or `off` mean no budget (`Ok(None)`). Errors: a message naming the
/// input (not a number, negative, or between 0 and 1 token).
pub fn parse_budget(s: &str) -> Result<Option<u64>, String> {
    let t = s.trim().to_ascii_lowercase().replace([',', '_', ' '], "");
    if t.is_empty() || t == "none" || t == "off" {
        return Ok(None);
    }
    let (num, mult) = match t.char_indices().last() {
        Some((i, 'k')) => (&t[..i], 1e3),
        Some((i, 'm')) => (&t[..i], 1e6),
        Some((i, 'g')) => (&t[..i], 1e9),
        _ => (t.as_str(), 1.0),
    };
    let bad = || {
        format!(
            "not a token budget: {:?} (e.g. 12000, 12k, 0 for none)",
            s.trim()
        )
    };
    match num.parse::<f64>() {
        Ok(0.0) => Ok(None),
        Ok(v) if v.is_finite() && v * mult >= 1e15 => {
            Err(format!("a budget is at most 10¹⁵ tokens: {:?}", s.trim()))
        }
        Ok(v) if v.is_finite() && v * mult >= 1.0 => Ok(Some((v * mult).round() as u64)),
        Ok(v) if v.is_finite() && v > 0.0 => {
            Err(format!("a budget is at least 1 token: {:?}", s.trim()))
        }
        _ => Err(bad()),
    }
}

/// Parse `NAME=value` pairs separated by whitespace; a `"…"` or `'…'` run anywhere in an
/// item is taken literally (quotes removed), so `TITLE="Q3 report"` holds a space.
/// Errors: a message naming the first item that is not `NAME=value` with an identifier name
/// (`[A-Za-z_][A-Za-z0-9_]*`, docs/FORMATS.md §5.3), or an unclosed quote.
pub fn parse_vars(s: &str) -> Result<std::collections::BTreeMap<String, String>, String> {
    let mut items: Vec<String> = Vec::new();
    let (mut cur, mut quote, mut started) = (String::new(), None::<char>, false);
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started {
                    items.push(std::mem::take(&mut cur));
                    started = false;
                }
            }
            (None, c) => {
                cur.push(c);
                started = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("unclosed {q} in {:?}", s.trim()));
    }
    if started {
        items.push(cur);
    }
    let mut out = std::collections::BTreeMap::new();
    for item in items {
        let ok = item.split_once('=').filter(|(k, _)| {
            let mut cs = k.chars();
            cs.next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        match ok {
            Some((k, v)) => {
                out.insert(k.to_string(), v.to_string());
            }
            None => return Err(format!("not NAME=value: {item:?}")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vars_parse_quoted_values_and_refuse_bad_names() {
        let v = parse_vars(r#"OUT_DIR=/tmp/x TITLE="Q3 report" EMPTY="#).unwrap();
        assert_eq!(v.get("OUT_DIR").map(String::as_str), Some("/tmp/x"));
        assert_eq!(v.get("TITLE").map(String::as_str), Some("Q3 report"));
        assert_eq!(v.get("EMPTY").map(String::as_str), Some(""));
        assert!(parse_vars("").unwrap().is_empty());
        assert_eq!(parse_vars("1X=2").unwrap_err(), "not NAME=value: \"1X=2\"");
        assert!(parse_vars("novalue").is_err());
        assert_eq!(parse_vars("A='x").unwrap_err(), "unclosed ' in \"A='x\"");
    }

    #[test]
    fn budgets_parse_with_suffixes_and_none() {
        assert_eq!(parse_budget("12000"), Ok(Some(12_000)));
        assert_eq!(parse_budget(" 12k "), Ok(Some(12_000)));
        assert_eq!(parse_budget("1.5k"), Ok(Some(1_500)));
        assert_eq!(parse_budget("2M"), Ok(Some(2_000_000)));
        assert_eq!(parse_budget("12,000"), Ok(Some(12_000)));
        assert_eq!(parse_budget("0"), Ok(None));
        assert_eq!(parse_budget("0k"), Ok(None));
        assert_eq!(parse_budget("1g"), Ok(Some(1_000_000_000)));
        assert_eq!(
            parse_budget("0.4").unwrap_err(),
            "a budget is at least 1 token: \"0.4\""
        );
        assert!(
            parse_budget("99999999999999999999")
                .unwrap_err()
                .starts_with("a budget is at most")
        );
        assert_eq!(parse_budget("off"), Ok(None));
        assert!(parse_budget("twelve").unwrap_err().contains("twelve"));
        assert!(parse_budget("-5").is_err());
    }
}
