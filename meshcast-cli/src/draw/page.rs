//! The drawing vocabulary the explorer page shares with this renderer: the sizes, gaps and
//! colours of [`layout`](super::layout) and [`shapes`](super::shapes), written as the ES module
//! `meshcast serve` answers at `/vocabulary.js`. The page (meshcast-cli/web/) imports every
//! number and colour it draws with from there, so its drawing and `route --svg` cannot drift
//! apart. Where things go on the page (its own arrangement of z-layers, its interactive nodes)
//! stays the page's; what a link, a badge or a symbol looks like is decided here.

use super::layout::{
    BESIDE, CELL, DROP_LABEL, HEAD_GAP, NODE_R, STUB, STUB_LABEL, TAIL_GAP, Z_BADGE_SHIFT,
    Z_BADGE_STACK,
};
use super::shapes::{
    BOW, BOW_MAX, BOW_MIN, DROP_RING_R, GRID, INK, INNER_R, LABEL_CHAR_W, LABEL_FONT, LABEL_H,
    LABEL_PAD, LINK_W, MUTED, OFF_R, PALETTE, SMALL_R, SOURCE_RING_R, SOURCE_SIDE, SYMBOL_STROKE,
    TREE, UNICAST_W, Z_ARROW_FLAT, Z_ARROW_HALF, Z_ARROW_TIP, Z_BADGE_H, Z_BADGE_W, Z_DIGIT_W,
    Z_FONT, Z_NUMBER_X, Z_TINT,
};

/// The numbers, under the names the page imports them by (those of the Rust constants).
const NUMBERS: [(&str, f64); 34] = [
    ("CELL", CELL),
    ("NODE_R", NODE_R),
    ("STUB", STUB),
    ("TAIL_GAP", TAIL_GAP),
    ("HEAD_GAP", HEAD_GAP),
    ("STUB_LABEL", STUB_LABEL),
    ("BESIDE", BESIDE),
    ("Z_BADGE_SHIFT", Z_BADGE_SHIFT),
    ("Z_BADGE_STACK", Z_BADGE_STACK),
    ("DROP_LABEL", DROP_LABEL),
    ("DROP_RING_R", DROP_RING_R),
    ("LINK_W", LINK_W),
    ("UNICAST_W", UNICAST_W),
    ("BOW", BOW),
    ("BOW_MIN", BOW_MIN),
    ("BOW_MAX", BOW_MAX),
    ("LABEL_PAD", LABEL_PAD),
    ("LABEL_CHAR_W", LABEL_CHAR_W),
    ("LABEL_H", LABEL_H),
    ("LABEL_FONT", LABEL_FONT),
    ("SOURCE_SIDE", SOURCE_SIDE),
    ("SOURCE_RING_R", SOURCE_RING_R),
    ("INNER_R", INNER_R),
    ("SMALL_R", SMALL_R),
    ("OFF_R", OFF_R),
    ("SYMBOL_STROKE", SYMBOL_STROKE),
    ("Z_BADGE_W", Z_BADGE_W),
    ("Z_DIGIT_W", Z_DIGIT_W),
    ("Z_BADGE_H", Z_BADGE_H),
    ("Z_FONT", Z_FONT),
    ("Z_ARROW_FLAT", Z_ARROW_FLAT),
    ("Z_ARROW_TIP", Z_ARROW_TIP),
    ("Z_ARROW_HALF", Z_ARROW_HALF),
    ("Z_NUMBER_X", Z_NUMBER_X),
];

/// The colours, by name; `PALETTE` follows them.
const COLOURS: [(&str, &str); 5] = [
    ("TREE", TREE),
    ("INK", INK),
    ("GRID", GRID),
    ("MUTED", MUTED),
    ("Z_TINT", Z_TINT),
];

/// The text of `/vocabulary.js`: one `export const` per constant.
pub fn vocabulary_module() -> String {
    let head = "// The drawing vocabulary of meshcast-cli/src/draw/ (page.rs), written by meshcast serve.\n";
    let numbers = NUMBERS.map(|(name, v)| format!("export const {name} = {v};\n"));
    let colours = COLOURS.map(|(name, c)| format!("export const {name} = \"{c}\";\n"));
    let palette = PALETTE.map(|c| format!("\"{c}\"")).join(", ");
    format!(
        "{head}{}{}export const PALETTE = [{palette}];\n",
        numbers.concat(),
        colours.concat()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_exports_the_renderers_constants() {
        let module = vocabulary_module();
        assert!(module.contains("export const STUB = 34;\n"), "{module}");
        assert!(module.contains("export const TAIL_GAP = 12;\n"), "{module}");
        assert!(
            module.contains("export const UNICAST_W = 2.2;\n"),
            "{module}"
        );
        assert!(
            module.contains("export const TREE = \"#1f4e9c\";\n"),
            "{module}"
        );
        assert!(module.contains("export const PALETTE = [\"#0072b2\", \"#d55e00\", "));
        assert!(module.contains("export const INNER_R = 4.95"), "{module}");
        assert_eq!(module.matches("export const ").count(), 40);
    }
}
