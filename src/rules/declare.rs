//! The `declare_rule!` macro: a rule's `///` docs become both rustdoc and the runtime docs
//! that `shellgate rules ID` prints, so they cannot drift apart.

/// Declare a rule struct with its metadata constant `META` and its [`crate::rules::Meta`]
/// implementation, so no rule writes `meta()` by hand.
///
/// A Hermes key a rule sets on a finding by itself (not the first, which every finding
/// carries) is named in the list, `hermes: ["recursive delete", LONG = "recursive delete
/// (long flag)"]`, and the macro makes it an associated constant (`Self::LONG`): the rule
/// then names the key, never copies its text, so the key it sets is always one it declares.
#[macro_export]
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident;
        code: $code:literal,
        name: $kebab:literal,
        severity: $sev:ident,
        category: $cat:ident,
        hermes: [$($($hk:ident =)? $h:literal),* $(,)?],
        programs: [$($p:literal),* $(,)?],
        summary: $summary:literal,
        pass: [$($pass:literal),* $(,)?],
        fail: [$($fail:literal),* $(,)?] $(,)?
    ) => {
        $(#[doc = $doc])*
        $vis struct $name;
        impl $name {
            $($(
                #[doc = concat!("The Hermes key `", $h, "`.")]
                pub const $hk: &'static str = $h;
            )?)*
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
