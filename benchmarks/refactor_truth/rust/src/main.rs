//! Definitions of Rust files through `syn`: one JSON object a line per definition (or impl
//! scope), with its leaf name, its span (first token after the attributes to the last
//! token) and its tokens, attributes stripped. Usage: refactor-truth-rust ROOT < paths
use proc_macro2::TokenStream;
use quote::ToTokens;
use std::io::{self, BufRead, Write};
use syn::visit::{self, Visit};

struct Walker<'a> {
    path: &'a str,
    out: Vec<String>,
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn base_type(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default(),
        syn::Type::Reference(r) => base_type(&r.elem),
        syn::Type::Ptr(p) => base_type(&p.elem),
        syn::Type::Paren(p) => base_type(&p.elem),
        syn::Type::Group(g) => base_type(&g.elem),
        other => other.to_token_stream().to_string(),
    }
}

impl<'a> Walker<'a> {
    fn emit(&mut self, name: &str, is_def: bool, tokens: TokenStream) {
        let mut first = None;
        let mut last = None;
        for tt in tokens.clone() {
            if first.is_none() {
                first = Some(tt.span().start());
            }
            last = Some(tt.span().end());
        }
        let (Some(s), Some(e)) = (first, last) else { return };
        self.out.push(format!(
            "{{\"path\":{},\"name\":{},\"def\":{},\"sl\":{},\"sc\":{},\"el\":{},\"ec\":{},\"body\":{}}}",
            esc(self.path), esc(name), is_def, s.line, s.column, e.line, e.column,
            esc(&tokens.to_string())
        ));
    }
}

macro_rules! bare {
    ($node:expr) => {{
        let mut n = $node.clone();
        n.attrs.clear();
        n.to_token_stream()
    }};
}

impl<'a, 'ast> Visit<'ast> for Walker<'a> {
    fn visit_item_fn(&mut self, n: &'ast syn::ItemFn) {
        self.emit(&n.sig.ident.to_string(), true, bare!(n));
        visit::visit_item_fn(self, n);
    }
    fn visit_item_struct(&mut self, n: &'ast syn::ItemStruct) {
        self.emit(&n.ident.to_string(), true, bare!(n));
        visit::visit_item_struct(self, n);
    }
    fn visit_item_enum(&mut self, n: &'ast syn::ItemEnum) {
        self.emit(&n.ident.to_string(), true, bare!(n));
        visit::visit_item_enum(self, n);
    }
    fn visit_item_union(&mut self, n: &'ast syn::ItemUnion) {
        self.emit(&n.ident.to_string(), true, bare!(n));
        visit::visit_item_union(self, n);
    }
    fn visit_item_trait(&mut self, n: &'ast syn::ItemTrait) {
        self.emit(&n.ident.to_string(), true, bare!(n));
        visit::visit_item_trait(self, n);
    }
    fn visit_item_type(&mut self, n: &'ast syn::ItemType) {
        self.emit(&n.ident.to_string(), true, bare!(n));
        visit::visit_item_type(self, n);
    }
    fn visit_item_mod(&mut self, n: &'ast syn::ItemMod) {
        self.emit(&n.ident.to_string(), true, bare!(n));
        visit::visit_item_mod(self, n);
    }
    fn visit_item_macro(&mut self, n: &'ast syn::ItemMacro) {
        if let Some(ident) = &n.ident {
            self.emit(&ident.to_string(), true, bare!(n));
        }
        visit::visit_item_macro(self, n);
    }
    fn visit_item_impl(&mut self, n: &'ast syn::ItemImpl) {
        self.emit(&base_type(&n.self_ty), false, bare!(n));
        visit::visit_item_impl(self, n);
    }
    fn visit_impl_item_method(&mut self, n: &'ast syn::ImplItemMethod) {
        self.emit(&n.sig.ident.to_string(), true, bare!(n));
        visit::visit_impl_item_method(self, n);
    }
    fn visit_impl_item_type(&mut self, n: &'ast syn::ImplItemType) {
        self.emit(&n.ident.to_string(), true, bare!(n));
        visit::visit_impl_item_type(self, n);
    }
    fn visit_trait_item_method(&mut self, n: &'ast syn::TraitItemMethod) {
        self.emit(&n.sig.ident.to_string(), true, bare!(n));
        visit::visit_trait_item_method(self, n);
    }
    fn visit_foreign_item_fn(&mut self, n: &'ast syn::ForeignItemFn) {
        self.emit(&n.sig.ident.to_string(), true, bare!(n));
        visit::visit_foreign_item_fn(self, n);
    }
}

fn main() {
    let root = std::env::args().nth(1).expect("usage: refactor-truth-rust ROOT < paths");
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let path = line.expect("stdin");
        let text = match std::fs::read_to_string(format!("{}/{}", root, path)) {
            Ok(t) => t,
            Err(e) => {
                writeln!(out, "{{\"path\":{},\"error\":{}}}", esc(&path), esc(&e.to_string())).unwrap();
                continue;
            }
        };
        match syn::parse_file(&text) {
            Ok(file) => {
                let mut w = Walker { path: &path, out: Vec::new() };
                w.visit_file(&file);
                for o in w.out {
                    writeln!(out, "{}", o).unwrap();
                }
            }
            Err(e) => {
                writeln!(out, "{{\"path\":{},\"error\":{}}}", esc(&path), esc(&e.to_string())).unwrap();
            }
        }
    }
}
