"""`evaltools server`: a Language Server Protocol server over stdio (`analysis`: what it says,
on the editor's text, through `evaltools check`'s own functions; `protocol`: pygls)."""
