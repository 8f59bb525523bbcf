//! Number and text formatting shared by the report and results.json.

pub(crate) fn pct(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

pub(crate) fn fmt_gdi(g: &[f64]) -> String {
    let v: Vec<String> = g.iter().map(|x| format!("{x:.3}")).collect();
    format!("({})", v.join(", "))
}

pub(crate) fn fmt_gdi2(g: &[f64]) -> String {
    let v: Vec<String> = g.iter().map(|x| format!("{x:.2}")).collect();
    format!("({})", v.join(", "))
}

/// Tables best first as their ladder levels, e.g. `70 › 56 › 42`.
pub(crate) fn ranking_levels(order: &[usize], names: &[String]) -> String {
    order
        .iter()
        .map(|&t| level_of(&names[t]))
        .collect::<Vec<_>>()
        .join(" › ")
}

pub(crate) fn level_of(name: &str) -> String {
    name.strip_prefix("ladder:")
        .and_then(|s| s.split('/').next())
        .unwrap_or(name)
        .to_string()
}

pub(crate) fn n_fmt(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
/// `k` of `n` as a percentage with two significant digits, e.g. `0.015%`, `8.8%`, `42%`.
pub(crate) fn share(k: usize, n: usize) -> String {
    let p = 100.0 * k as f64 / n.max(1) as f64;
    if p == 0.0 {
        return "0%".into();
    }
    let decimals = (1.0 - p.log10().floor()).clamp(0.0, 6.0) as usize;
    format!("{p:.decimals$}%")
}

/// `5, 10 and 20`.
pub(crate) fn or_list(xs: &[usize]) -> String {
    let v: Vec<String> = xs.iter().map(usize::to_string).collect();
    match v.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_lists_read_right() {
        assert_eq!(
            ranking_levels(&[1, 0], &["ladder:3/70".into(), "ladder:70/70".into()]),
            "70 › 3"
        );
        assert_eq!(level_of("expert"), "expert");
        assert_eq!(n_fmt(1_400_000), "1,400,000");
        assert_eq!(n_fmt(999), "999");
        assert_eq!(share(3, 20_000), "0.015%");
        assert_eq!(share(1_756, 20_000), "8.8%");
        assert_eq!(share(4_200, 10_000), "42%");
        assert_eq!(share(0, 10), "0%");
        assert_eq!(or_list(&[5, 10, 20]), "5, 10 and 20");
        assert_eq!(or_list(&[5]), "5");
        assert_eq!(or_list(&[]), "");
        assert_eq!(capitalise("één"), "Één");
        assert_eq!(pct(0.42), "42%");
        assert_eq!(fmt_gdi2(&[0.5, 0.25]), "(0.50, 0.25)");
    }
}
