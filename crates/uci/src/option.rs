//! The options an engine declares after `uci` (`option name … type …`).

use core::fmt;

use crate::error::Tokens;
use crate::ParseError;

/// An option the engine declares: `option name Hash type spin default 16 min 1 max 33554432`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The option's name, which may contain spaces (`Move Overhead`).
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
}

/// The type of an [`OptionDecl`], with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check`: a boolean.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin`: an integer in a range.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `type combo`: one of several strings.
    Combo {
        /// The default.
        default: String,
        /// The choices (`var`).
        vars: Vec<String>,
    },
    /// `type button`: an action without a value.
    Button,
    /// `type string`: free text; the empty string is written `<empty>`.
    String {
        /// The default.
        default: String,
    },
}

const KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

/// `<empty>` is how UCI writes an empty string value.
pub(crate) fn unempty(text: String) -> String {
    if text == "<empty>" {
        String::new()
    } else {
        text
    }
}

fn expected(after: &'static str, expected: &'static str, found: Option<&str>) -> ParseError {
    ParseError::Expected { after, expected, found: found.map(str::to_owned) }
}

impl OptionDecl {
    /// Reads the declaration after `option`.
    pub(crate) fn parse(tokens: &mut Tokens<'_>) -> Result<OptionDecl, ParseError> {
        match tokens.next() {
            Some("name") => {}
            found => return Err(expected("option", "name", found)),
        }
        let name = tokens.until(|t| t == "type");
        if name.is_empty() {
            return Err(expected("name", "an option name", tokens.peek()));
        }
        tokens.next();
        let type_name = tokens.next();
        let mut default = None;
        let (mut min, mut max) = (None, None);
        let mut vars = Vec::new();
        while let Some(key) = tokens.next() {
            let value = tokens.until(|t| KEYWORDS.contains(&t));
            match key {
                "default" => default = Some(unempty(value)),
                "min" => min = Some(value),
                "max" => max = Some(value),
                "var" => vars.push(unempty(value)),
                other => {
                    return Err(ParseError::Unexpected {
                        command: "option",
                        token: other.to_owned(),
                    })
                }
            }
        }
        let spin_value = |key: &'static str, value: Option<String>| {
            value.as_deref().and_then(|v| v.parse::<i64>().ok()).ok_or_else(|| {
                expected(key, "a number", value.as_deref().filter(|v| !v.is_empty()))
            })
        };
        let kind = match type_name {
            Some("check") => OptionKind::Check {
                default: match default.as_deref() {
                    Some("true") => true,
                    Some("false") => false,
                    found => return Err(expected("default", "true or false", found)),
                },
            },
            Some("spin") => OptionKind::Spin {
                default: spin_value("default", default)?,
                min: spin_value("min", min)?,
                max: spin_value("max", max)?,
            },
            Some("combo") => OptionKind::Combo { default: default.unwrap_or_default(), vars },
            Some("button") => OptionKind::Button,
            Some("string") => OptionKind::String { default: default.unwrap_or_default() },
            found => return Err(expected("type", "check, spin, combo, button or string", found)),
        };
        Ok(OptionDecl { name, kind })
    }
}

fn or_empty(text: &str) -> &str {
    if text.is_empty() {
        "<empty>"
    } else {
        text
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {}", or_empty(default))?;
                for var in vars {
                    write!(f, " var {}", or_empty(var))?;
                }
                Ok(())
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } => write!(f, "string default {}", or_empty(default)),
        }
    }
}
