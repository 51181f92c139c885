//! Skill listings (docs/FORMATS.md §3.5, §5.4) and the frontmatter alias helpers.

use skillnav::frontmatter;
use skillnav::skill::listing::{
    ListingEntry, ListingFormat, ListingOptions, allowed_tools, escape_html, escape_xml,
    format_listing, is_xml_char, truncate_listing, when_to_use,
};

fn entries() -> Vec<ListingEntry> {
    vec![
        ListingEntry {
            name: "pdf".into(),
            description: "Read <PDF> & \"forms\"".into(),
            when_to_use: Some("user's PDF".into()),
            location: "/s/pdf/SKILL.md".into(),
        },
        ListingEntry {
            name: "git".into(),
            description: "Git help".into(),
            when_to_use: None,
            location: "/s/git/SKILL.md".into(),
        },
    ]
}

fn opts(format: ListingFormat) -> ListingOptions {
    ListingOptions {
        format,
        ..ListingOptions::default()
    }
}

#[test]
fn plain_layout() {
    assert_eq!(
        format_listing(&entries(), opts(ListingFormat::Plain)),
        "- pdf: Read <PDF> & \"forms\" (when: user's PDF)\n- git: Git help"
    );
    let no_when = ListingOptions {
        include_when_to_use: false,
        ..opts(ListingFormat::Plain)
    };
    assert_eq!(
        format_listing(&entries(), no_when),
        "- pdf: Read <PDF> & \"forms\"\n- git: Git help"
    );
    assert_eq!(format_listing(&[], opts(ListingFormat::Plain)), "");
}

#[test]
fn xml_layout_escapes() {
    assert_eq!(
        format_listing(&entries(), opts(ListingFormat::Xml)),
        "<skills>\n  <skill name=\"pdf\">\n    <description>Read &lt;PDF&gt; &amp; &quot;forms&quot;</description>\n    <whenToUse>user's PDF</whenToUse>\n  </skill>\n  <skill name=\"git\">\n    <description>Git help</description>\n  </skill>\n</skills>"
    );
    assert_eq!(
        format_listing(&[], opts(ListingFormat::Xml)),
        "<skills></skills>"
    );
}

#[test]
fn xml_listings_of_control_characters_in_frontmatter_are_well_formed() {
    // ESC, BEL, VT, the invalid-UTF-8 placeholder and U+FFFE/U+FFFF are not XML 1.0
    // characters: each becomes U+FFFD; tab, LF and CR stay.
    let raw = "a\u{1b}]0;t\u{7}b\u{b}\u{1a}\u{fffe}\u{ffff}\tc\nd ]]>";
    let want = "a\u{fffd}]0;t\u{fffd}b\u{fffd}\u{fffd}\u{fffd}\u{fffd}\tc\nd ]]&gt;";
    assert_eq!(escape_xml(raw), want);
    assert_eq!(escape_html(raw), want);
    let e = ListingEntry {
        name: "n\u{1b}[31m".into(),
        description: raw.into(),
        when_to_use: Some("w\u{7}".into()),
        location: "/s/n/SKILL.md".into(),
    };
    for f in [ListingFormat::Xml, ListingFormat::AvailableSkills] {
        let text = format_listing(std::slice::from_ref(&e), opts(f));
        assert!(text.chars().all(is_xml_char), "{f:?}: {text:?}");
    }
    assert!(is_xml_char('\u{10000}') && is_xml_char('\u{fffd}') && !is_xml_char('\u{0}'));
}

#[test]
fn available_skills_layout() {
    assert_eq!(
        format_listing(&entries()[..1], opts(ListingFormat::AvailableSkills)),
        "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nRead &lt;PDF&gt; &amp; &quot;forms&quot;\n</description>\n<location>\n/s/pdf/SKILL.md\n</location>\n</skill>\n</available_skills>"
    );
    assert_eq!(
        format_listing(&[], opts(ListingFormat::AvailableSkills)),
        "<available_skills>\n</available_skills>"
    );
    assert_eq!(escape_html("it's"), "it&#x27;s");
}

#[test]
fn max_chars_cuts_with_dots() {
    let o = ListingOptions {
        max_chars: Some(10),
        ..opts(ListingFormat::Plain)
    };
    assert_eq!(format_listing(&entries(), o), "- pdf: ...");
    assert_eq!(truncate_listing("abcdef", 6), "abcdef");
    assert_eq!(truncate_listing("abcdef", 5), "ab...");
    assert_eq!(truncate_listing("abcdef", 3), "abc");
    assert_eq!(truncate_listing("abcdef", 0), "");
    assert_eq!(truncate_listing("éèêëa", 4), "é...");
    assert_eq!(
        ListingFormat::parse("available-skills"),
        Some(ListingFormat::AvailableSkills)
    );
}

#[test]
fn aliases_when_to_use_and_allowed_tools() {
    let camel = frontmatter::parse(
        "---\nname: a\ndescription: d\nwhenToUse: camel\nallowedTools: [Read, Bash]\n---\n",
    )
    .expect("fm");
    assert_eq!(when_to_use(&camel).as_deref(), Some("camel"));
    assert_eq!(allowed_tools(&camel), ["Read", "Bash"]);
    let kebab =
        frontmatter::parse("---\nwhen-to-use: kebab\nallowed-tools: Bash(git:*) Read\n---\n")
            .expect("fm");
    assert_eq!(when_to_use(&kebab).as_deref(), Some("kebab"));
    assert_eq!(allowed_tools(&kebab), ["Bash(git:*)", "Read"]);
    let both = frontmatter::parse("---\nwhenToUse: second\nwhen_to_use: first\n---\n").expect("fm");
    assert_eq!(when_to_use(&both).as_deref(), Some("first"));
    let e = ListingEntry::from_frontmatter(&kebab, "folder", "/x/SKILL.md");
    assert_eq!(
        (
            e.name.as_str(),
            e.description.as_str(),
            e.when_to_use.as_deref()
        ),
        ("folder", "", Some("kebab"))
    );
}
