//! The sends of path- and unicast-based plans: every worm along its route in its own colour,
//! with a ring and its hop count at each destination it drops a copy at; every unicast as a
//! curved arrow from its sender to its destination, coloured and labelled by its step (the
//! logical message-passing tree of seed 001 Figure 2.1.6 (b); routes are in the JSON report).

use std::collections::BTreeMap;

use svg::node::element::Group;

use super::classify;
use super::layout::{Layout, BESIDE, DROP_LABEL, HEAD_GAP, P, STUB, TAIL_GAP};
use super::shapes::{self, colour};
use crate::report::{RouteReport, SendReport};

/// Every worm of `r`: its lines (drawn under the nodes) and its drop rings, hop counts and z-layer
/// badges (drawn over them).
pub fn worms(layout: &Layout, r: &RouteReport) -> (Group, Group) {
    let mut lines = Group::new();
    let mut labels = Group::new();
    let mut badges: BTreeMap<(&[u32], i64), u32> = BTreeMap::new();
    for (i, send) in r.sends.iter().enumerate() {
        let mut at: &[u32] = &send.from;
        for (j, to) in send.route.iter().enumerate() {
            let hops = j as u32 + 1;
            let (line, badge) = hop(layout, at, to, i, hops, &mut badges);
            lines = lines.add(line);
            labels = labels.add(badge);
            if send.drops.contains(to) {
                labels = labels.add(drop_mark(layout.pos(to), i, hops));
            }
            at = to;
        }
    }
    (lines, labels)
}

/// One hop of worm `i`, `hops` from its sender: a line beside the link (a stub at each end of a
/// wraparound link), or for a hop along z a badge on both nodes.
fn hop<'a>(
    layout: &Layout,
    from: &'a [u32],
    to: &'a [u32],
    i: usize,
    hops: u32,
    badges: &mut BTreeMap<(&'a [u32], i64), u32>,
) -> (Group, Group) {
    let (p, q) = (layout.pos(from), layout.pos(to));
    let mut line = Group::new();
    let mut label = Group::new();
    match classify(from, to) {
        (2, sign, _) => {
            for (node, at, side) in [(from, p, sign), (to, q, -sign)] {
                let count = badges.entry((node, side)).or_default();
                let badge_at = Layout::z_badge_at(at, side, *count);
                *count += 1;
                label = label.add(shapes::z_badge_in(badge_at, sign, hops, colour(i)));
            }
        }
        (dim, sign, true) => {
            let u = Layout::step(dim, sign);
            let side = P::new(u.y, -u.x) * BESIDE;
            line = line
                .add(shapes::worm_line(
                    p + u * TAIL_GAP + side,
                    p + u * STUB + side,
                    i,
                ))
                .add(shapes::worm_line(
                    q - u * STUB + side,
                    q - u * HEAD_GAP + side,
                    i,
                ));
        }
        (_, _, false) => {
            let u = p.toward(q);
            let side = P::new(u.y, -u.x) * BESIDE;
            let (a, b) = (p + u * TAIL_GAP, q - u * HEAD_GAP);
            line = line.add(shapes::worm_line(a + side, b + side, i));
        }
    }
    (line, label)
}

/// Every unicast of `r`: its curved arrow (drawn under the nodes) and its step label (over them).
pub fn unicasts(layout: &Layout, r: &RouteReport) -> (Group, Group) {
    let mut lines = Group::new();
    let mut labels = Group::new();
    for send in &r.sends {
        let (Some(step), Some(to)) = (send.step, send.route.last()) else {
            continue;
        };
        let i = step.saturating_sub(1) as usize;
        let (curve, mid) = shapes::unicast_curve(layout.pos(&send.from), layout.pos(to), i);
        lines = lines.add(curve);
        labels = labels.add(shapes::label_in(mid, &step.to_string(), colour(i)));
    }
    (lines, labels)
}

/// The mark of a drop by worm `i`, `hops` down it: a ring round the node and the hop count
/// below its right (the top corners hold z-layer badges).
fn drop_mark(at: P, i: usize, hops: u32) -> Group {
    let count = shapes::label_in(
        at + P::new(DROP_LABEL, DROP_LABEL),
        &hops.to_string(),
        colour(i),
    );
    Group::new().add(shapes::drop_ring(at, i)).add(count)
}

/// `worm 1 from (0,0): 12 hops, 4 drops`.
pub fn worm_summary(i: usize, s: &SendReport) -> String {
    format!(
        "worm {} from {}: {} hops, {} drop{}",
        i + 1,
        crate::text::node(&s.from),
        s.route.len(),
        s.drops.len(),
        if s.drops.len() == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use meshcast::eval::{Ports, Wormhole};
    use meshcast::plan::{Hop, Plan, PlanKind};
    use meshcast::schedule::Schedule;
    use meshcast::topology::Shape;

    /// A worm from (0,0) through (1,0)* (2,0) (2,1)* on a 4×3 mesh.
    fn report(shape: &Shape) -> RouteReport {
        let n = |c: &[u32]| shape.node(c).unwrap();
        let hop = |c: &[u32], drop| Hop::new(n(c), drop);
        let mut plan = Plan::new(PlanKind::Path, n(&[0, 0]), vec![n(&[1, 0]), n(&[2, 1])]);
        plan.push_send(
            n(&[0, 0]),
            [hop(&[1, 0], true), hop(&[2, 0], false), hop(&[2, 1], true)],
        );
        let model = Wormhole {
            startup: 0,
            length: 20,
            ports: Ports::All,
        };
        RouteReport::of_plan("test", &plan, shape, Schedule::Paper, model.into())
    }

    #[test]
    fn a_worm_draws_a_line_per_hop_and_a_mark_per_drop() {
        let shape: Shape = "mesh:4x3".parse().unwrap();
        let (lines, labels) = worms(&Layout::new(&shape), &report(&shape));
        let (lines, labels) = (lines.to_string(), labels.to_string());
        assert_eq!(lines.matches("url(#arrow-0)").count(), 3);
        assert_eq!(labels.matches("<circle").count(), 2, "two drop rings");
        for hops in ["1", "3"] {
            assert!(labels.contains(&format!(">\n{hops}\n</text>")), "{labels}");
        }
        assert_eq!(
            worm_summary(0, &report(&shape).sends[0]),
            "worm 1 from (0,0): 3 hops, 2 drops"
        );
    }
}
