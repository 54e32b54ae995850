// Definitions of Go files through go/parser and go/ast: one JSON object a line per
// definition (functions, methods as Receiver.Name, types), with its span (the `func`
// keyword or, for a lone `type T ...`, the whole declaration) and its body as
// go/printer prints it without comments. Usage: go run . ROOT < paths
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
)

type record struct {
	Path  string `json:"path"`
	Name  string `json:"name"`
	Def   bool   `json:"def"`
	Sl    int    `json:"sl"`
	Sc    int    `json:"sc"`
	El    int    `json:"el"`
	Ec    int    `json:"ec"`
	Body  string `json:"body"`
	Error string `json:"error,omitempty"`
}

func baseType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return baseType(t.X)
	case *ast.IndexExpr:
		return baseType(t.X)
	case *ast.IndexListExpr:
		return baseType(t.X)
	case *ast.ParenExpr:
		return baseType(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

func main() {
	root := os.Args[1]
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	scanner := bufio.NewScanner(os.Stdin)
	for scanner.Scan() {
		path := scanner.Text()
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, filepath.Join(root, path), nil, parser.SkipObjectResolution)
		if err != nil {
			out.Encode(record{Path: path, Error: err.Error()})
			continue
		}
		emit := func(name string, node ast.Node, from, to token.Pos) {
			var buf bytes.Buffer
			printer.Fprint(&buf, fset, node)
			s, e := fset.Position(from), fset.Position(to)
			out.Encode(record{Path: path, Name: name, Def: true, Sl: s.Line, Sc: s.Column, El: e.Line, Ec: e.Column, Body: buf.String()})
		}
		types := func(decl *ast.GenDecl) {
			if decl.Tok != token.TYPE {
				return
			}
			for _, spec := range decl.Specs {
				ts := spec.(*ast.TypeSpec)
				if len(decl.Specs) != 1 {
					emit(ts.Name.Name, ts, ts.Pos(), ts.End())
				} else {
					emit(ts.Name.Name, decl, decl.Pos(), decl.End())
				}
			}
		}
		for _, d := range file.Decls {
			switch decl := d.(type) {
			case *ast.FuncDecl:
				name := decl.Name.Name
				if decl.Recv != nil && len(decl.Recv.List) > 0 {
					if recv := baseType(decl.Recv.List[0].Type); recv != "" {
						name = recv + "." + name
					}
				}
				decl.Doc = nil
				emit(name, decl, decl.Pos(), decl.End())
				if decl.Body != nil {
					// types declared inside a function are its members
					ast.Inspect(decl.Body, func(n ast.Node) bool {
						if ds, ok := n.(*ast.DeclStmt); ok {
							if g, ok := ds.Decl.(*ast.GenDecl); ok {
								types(g)
							}
						}
						return true
					})
				}
			case *ast.GenDecl:
				decl.Doc = nil
				types(decl)
			}
		}
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
