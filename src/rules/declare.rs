//! The `declare_rule!` macro: a rule's `///` docs become both rustdoc and the runtime docs
//! that `shellgate rules ID` prints, so they cannot drift apart.

/// Declare a rule struct with its metadata constant `META` and its [`crate::rules::Meta`]
/// implementation, so no rule writes `meta()` by hand.
#[macro_export]
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident;
        code: $code:literal,
        name: $kebab:literal,
        severity: $sev:ident,
        category: $cat:ident,
        hermes: [$($h:literal),* $(,)?],
        programs: [$($p:literal),* $(,)?],
        summary: $summary:literal,
        pass: [$($pass:literal),* $(,)?],
        fail: [$($fail:literal),* $(,)?] $(,)?
    ) => {
        $(#[doc = $doc])*
        $vis struct $name;
        impl $name {
            pub const META: $crate::rules::RuleMeta = $crate::rules::RuleMeta {
                code: $code,
                name: $kebab,
                severity: $crate::Severity::$sev,
                category: $crate::rules::Category::$cat,
                hermes: &[$($h),*],
                programs: &[$($p),*],
                summary: $summary,
                docs: concat!($($doc, "\n"),*),
                pass: &[$($pass),*],
                fail: &[$($fail),*],
            };
        }
        impl $crate::rules::Meta for $name {
            fn meta(&self) -> &'static $crate::rules::RuleMeta {
                &Self::META
            }
        }
    };
}
