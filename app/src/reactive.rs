//! Reactive text and true/false values as shared trait objects.
//!
//! Leptos compiles the code that creates, updates and removes a reactive child, attribute or
//! property once per closure type, so every `move || …` in a view carries its own copy of it
//! (1–2 KB of wasm each). An `Arc<dyn Fn() -> T>` is one type per output type `T`: all of
//! them share one copy. The page's many text and hidden/disabled/checked closures go through
//! these two helpers; closures that build views keep their own types.

use std::sync::Arc;

/// Reactive text: a child, an attribute (`title`, `aria-*`) or a `prop:value`.
pub type Text = Arc<dyn Fn() -> String + Send + Sync>;

/// A reactive true/false: `hidden`, `disabled`, `prop:checked`, `class:name`, ….
pub type Flag = Arc<dyn Fn() -> bool + Send + Sync>;

pub fn text(f: impl Fn() -> String + Send + Sync + 'static) -> Text {
    Arc::new(f)
}

pub fn flag(f: impl Fn() -> bool + Send + Sync + 'static) -> Flag {
    Arc::new(f)
}

/// An event handler as a trait object: Leptos otherwise compiles its listener plumbing once
/// per handler closure (33 of them), and once per event type this way.
pub type Handler<E> = Box<dyn FnMut(E)>;

pub fn handler<E>(f: impl FnMut(E) + 'static) -> Handler<E> {
    Box::new(f)
}
