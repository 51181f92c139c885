//! What a remote PATH argument names (docs/REMOTE.md "Forms"): a web page or llms.txt URL, or
//! a GitHub repository (`github:OWNER/REPO[@REF][/PATH]`, or its `https://github.com/…/tree/…`
//! address). Pure parsing: no I/O.

/// A remote source named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// An `http://` or `https://` URL of an `llms.txt`, `llms-full.txt` or Markdown page.
    Url(Url),
    /// A GitHub repository at a ref, opened at a folder inside it.
    GitHub(GitHub),
}

/// An absolute `http(s)` URL, split into the parts the cache and the page mirror use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    /// The URL with its scheme and host in lower case and the fragment cut
    /// (`https://hono.dev/llms.txt`): the cache key, so `HONO.dev` and `hono.dev` share it.
    pub full: String,
    /// `http` or `https`.
    pub scheme: String,
    /// Host, with `:port` when one is given (`hono.dev`, `127.0.0.1:8080`).
    pub authority: String,
    /// The path, starting with `/` (`/llms.txt`; `/` when the URL has none); no query.
    pub path: String,
}

/// `github:OWNER/REPO[@REF][/PATH]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitHub {
    /// Repository owner (user or organisation).
    pub owner: String,
    /// Repository name.
    pub repo: String,
    /// Branch, tag or commit; `None` is the default branch (`HEAD`).
    pub git_ref: Option<String>,
    /// Folder inside the repository to open, `/`-separated, no leading or trailing `/`
    /// (empty: the whole repository).
    pub path: String,
}

impl Source {
    /// The source's canonical spelling (`github:owner/repo@ref/path`, or the URL): the cache
    /// key and what messages show.
    pub fn canonical(&self) -> String {
        match self {
            Source::Url(u) => u.full.clone(),
            Source::GitHub(g) => g.canonical(),
        }
    }

    /// The root label, which starts every node id of the root (docs/DESIGN.md §2 "Ids"):
    /// `github:owner/repo[@ref][/path]` for a repository, the host (with its port) for a
    /// URL, whose pages are mirrored under their URL paths.
    pub fn label(&self) -> String {
        match self {
            Source::Url(u) => u.authority.clone(),
            Source::GitHub(g) => g.canonical(),
        }
    }
}

impl GitHub {
    /// `github:owner/repo[@ref][/path]`.
    pub fn canonical(&self) -> String {
        let mut s = format!("github:{}/{}", self.owner, self.repo);
        if let Some(r) = &self.git_ref {
            s.push('@');
            s.push_str(r);
        }
        if !self.path.is_empty() {
            s.push('/');
            s.push_str(&self.path);
        }
        s
    }

    /// The repository at its ref, without the folder: what one archive holds, so two folders of
    /// one repository share one cache entry.
    pub fn archive_key(&self) -> String {
        GitHub {
            path: String::new(),
            ..self.clone()
        }
        .canonical()
    }
}

/// Parse a PATH argument as a remote source; `None` when it is not one (a local path).
///
/// Forms: `http://…` and `https://…` URLs; `github:OWNER/REPO[@REF][/PATH]`;
/// `https://github.com/OWNER/REPO[/tree/REF[/PATH]]` (a repository page, not a file URL).
/// Errors: a `github:` form without an owner or a repository, or with a name holding
/// characters GitHub does not allow, and a URL without a host.
pub fn parse(arg: &str) -> Option<Result<Source, String>> {
    if let Some(rest) = arg.strip_prefix("github:") {
        return Some(parse_github(rest).map(Source::GitHub));
    }
    let lower = arg.get(..8).unwrap_or(arg).to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return None;
    }
    Some(parse_url(arg).and_then(|u| match github_page(&u) {
        Some(g) => g.map(Source::GitHub),
        None => Ok(Source::Url(u)),
    }))
}

/// Split an absolute `http(s)` URL. Errors: no host, whitespace or control characters, or a
/// user name or password in it (they would be stored in the cache and shown by
/// `cache list`).
pub fn parse_url(arg: &str) -> Result<Url, String> {
    if arg.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "{arg}: a URL cannot hold spaces or control characters"
        ));
    }
    let (scheme, rest) = arg
        .split_once("://")
        .ok_or_else(|| format!("{arg}: not a URL"))?;
    let scheme = scheme.to_ascii_lowercase();
    let no_frag = rest.split('#').next().unwrap_or("");
    let (authority, tail) = match no_frag.find(['/', '?']) {
        Some(i) => no_frag.split_at(i),
        None => (no_frag, ""),
    };
    if authority.contains('@') {
        return Err(format!(
            "{scheme}://…: a URL with a user name or password is not supported"
        ));
    }
    let authority = authority.to_ascii_lowercase();
    if authority.is_empty() || authority.starts_with(':') {
        return Err(format!("{arg}: the URL has no host"));
    }
    let path = tail.split('?').next().unwrap_or("");
    let path = if path.is_empty() { "/" } else { path };
    let tail = match tail.chars().next() {
        Some('?') => format!("/{tail}"),
        None => "/".to_string(),
        Some(_) => tail.to_string(),
    };
    Ok(Url {
        full: format!("{scheme}://{authority}{tail}"),
        scheme,
        authority,
        path: path.to_string(),
    })
}

/// `https://github.com/OWNER/REPO[/tree/REF[/PATH]]` as a repository source; `None` for any
/// other URL (a `blob/` file or a raw URL stays a URL).
fn github_page(u: &Url) -> Option<Result<GitHub, String>> {
    if u.authority != "github.com" && u.authority != "www.github.com" {
        return None;
    }
    let parts: Vec<&str> = u.path.split('/').filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [owner, repo] => Some(github(owner, repo.trim_end_matches(".git"), None, "")),
        [owner, repo, "tree", git_ref, rest @ ..] => {
            Some(github(owner, repo, Some(git_ref), &rest.join("/")))
        }
        _ => None,
    }
}

fn parse_github(rest: &str) -> Result<GitHub, String> {
    let bad = || format!("github:{rest}: expected github:OWNER/REPO[@REF][/PATH]");
    let (owner, after) = rest.split_once('/').ok_or_else(bad)?;
    let (repo_ref, path) = match after.find('/') {
        Some(i) => (&after[..i], &after[i + 1..]),
        None => (after, ""),
    };
    let (repo, git_ref) = match repo_ref.split_once('@') {
        Some((r, g)) if !g.is_empty() => (r, Some(g)),
        Some(_) => return Err(bad()),
        None => (repo_ref, None),
    };
    github(owner, repo, git_ref, path)
}

fn github(owner: &str, repo: &str, git_ref: Option<&str>, path: &str) -> Result<GitHub, String> {
    let name_ok = |s: &str| {
        !s.is_empty()
            && s != "."
            && s != ".."
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    if !name_ok(owner) || !name_ok(repo) {
        return Err(format!(
            "github:{owner}/{repo}: owner and repository are names of letters, digits, `-`, `_` and `.`"
        ));
    }
    // `#` delimits node ids (docs/DESIGN.md §2 "Ids"), so neither a ref nor a folder holds one.
    let ref_ok = |r: &str| {
        !r.contains("..")
            && !r.starts_with('-')
            && r.chars().all(|c| c.is_ascii_graphic() && c != '#')
    };
    if git_ref.is_some_and(|r| !ref_ok(r)) {
        return Err(format!("github:{owner}/{repo}: not a usable ref"));
    }
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segs.iter().any(|s| {
        *s == "." || *s == ".." || s.contains(['#', '\\']) || s.chars().any(char::is_control)
    }) {
        return Err(format!(
            "github:{owner}/{repo}: the folder cannot hold `.`, `..`, `#`, `\\` or control characters"
        ));
    }
    Ok(GitHub {
        owner: owner.to_string(),
        repo: repo.to_string(),
        git_ref: git_ref.map(str::to_string),
        path: segs.join("/"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gh(arg: &str) -> GitHub {
        match parse(arg) {
            Some(Ok(Source::GitHub(g))) => g,
            other => panic!("{arg}: {other:?}"),
        }
    }

    #[test]
    fn github_forms_parse_to_owner_repo_ref_and_folder() {
        let g = gh("github:anthropics/skills@main/skills/pdf");
        assert_eq!(
            (
                g.owner.as_str(),
                g.repo.as_str(),
                g.git_ref.as_deref(),
                g.path.as_str()
            ),
            ("anthropics", "skills", Some("main"), "skills/pdf")
        );
        assert_eq!(g.canonical(), "github:anthropics/skills@main/skills/pdf");
        assert_eq!(g.archive_key(), "github:anthropics/skills@main");
        let g = gh("github:o/r");
        assert_eq!((g.git_ref, g.path.as_str()), (None, ""));
        let g = gh("https://github.com/o/r/tree/v1.2/docs/a");
        assert_eq!(g.canonical(), "github:o/r@v1.2/docs/a");
        assert_eq!(gh("https://github.com/o/r.git").canonical(), "github:o/r");
    }

    #[test]
    fn bad_github_forms_are_errors_not_local_paths() {
        for arg in [
            "github:",
            "github:o",
            "github:o/",
            "github:o/r@",
            "github:o/r@x/../etc",
            "github:o;rm/r",
            "github:o/r@--upload-pack=x",
            "github:o/r@v#1",
            "github:o/r/a#b",
        ] {
            assert!(matches!(parse(arg), Some(Err(_))), "{arg}");
        }
    }

    #[test]
    fn urls_split_into_authority_and_path_and_local_paths_are_not_remote() {
        let Some(Ok(Source::Url(u))) = parse("HTTPS://Hono.dev:8443/docs/llms.txt?x=1#top") else {
            panic!("not a URL");
        };
        assert_eq!(
            (u.scheme.as_str(), u.authority.as_str(), u.path.as_str()),
            ("https", "hono.dev:8443", "/docs/llms.txt")
        );
        assert_eq!(u.full, "https://hono.dev:8443/docs/llms.txt?x=1");
        assert!(matches!(parse("http://user:pw@h.dev/x"), Some(Err(e)) if !e.contains("pw")));
        assert!(parse("docs/llms.txt").is_none());
        assert!(parse("./github:x").is_none());
        assert!(matches!(parse("http://"), Some(Err(_))));
        assert!(matches!(parse("https://a b/c"), Some(Err(_))));
        // A blob page stays a URL: it names one file, not a repository folder.
        assert!(matches!(
            parse("https://github.com/o/r/blob/main/README.md"),
            Some(Ok(Source::Url(_)))
        ));
    }
}
