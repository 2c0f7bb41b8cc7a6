//! The one progress bar of the command line: every long command (sweep and its gaps, reproduce,
//! simulate, msets) shows it on standard error, counting whole things or weighted work.

use indicatif::{ProgressBar, ProgressStyle};

/// What a progress bar counts.
#[derive(Clone, Copy)]
pub enum Count<'a> {
    /// Whole things of this unit (multicasts, simulations): "12/40 multicasts".
    Of(&'a str),
    /// Weighted work, as a percentage, followed by the bar's message (what runs now).
    Percent,
}

/// A bar on standard error with the time left, after its prefix (none unless set); indicatif
/// hides it when standard error is not a terminal, and `quiet` hides it always. Every long
/// command of the CLI shows this one bar.
pub fn progress_bar(len: u64, count: Count, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(&template(count)) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn template(count: Count) -> String {
    let count = match count {
        Count::Of(unit) => format!("{{human_pos}}/{{human_len}} {unit}"),
        Count::Percent => "{percent}% {msg}".to_string(),
    };
    format!("{{prefix}}{{elapsed_precise}} [{{wide_bar}}] {count}, {{eta}} left")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_template_parses() {
        for count in [Count::Of("simulations"), Count::Percent] {
            assert!(ProgressStyle::with_template(&template(count)).is_ok());
        }
    }
}
