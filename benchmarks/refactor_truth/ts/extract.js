// Definitions of TypeScript and JavaScript files through the TypeScript compiler API: one
// JSON object a line per definition, with its leaf name, its span (first token, decorators
// included, comments not, to the last token) and its text as the compiler's printer
// prints it without comments. Usage: NODE_PATH=<dir with typescript> node extract.js ROOT < paths
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const KINDS = {".ts": ts.ScriptKind.TS, ".mts": ts.ScriptKind.TS, ".cts": ts.ScriptKind.TS,
  ".tsx": ts.ScriptKind.TSX, ".js": ts.ScriptKind.JS, ".mjs": ts.ScriptKind.JS,
  ".cjs": ts.ScriptKind.JS, ".jsx": ts.ScriptKind.JSX};
const printer = ts.createPrinter({removeComments: true});

function isFunctionValue(node) {
  return node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node)
    || ts.isClassExpression(node));
}

function extract(root, rel, out) {
  const ext = path.extname(rel).toLowerCase();
  const text = fs.readFileSync(path.join(root, rel), "utf8");
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, KINDS[ext]);
  const typescript = ext !== ".js" && ext !== ".mjs" && ext !== ".cjs" && ext !== ".jsx";
  function emit(name, node) {
    const s = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    const e = sf.getLineAndCharacterOfPosition(node.end);
    const body = printer.printNode(ts.EmitHint.Unspecified, node, sf);
    out.push(JSON.stringify({path: rel, name, def: true, sl: s.line + 1, sc: s.character,
      el: e.line + 1, ec: e.character, body}));
  }
  function visit(node) {
    if (ts.isFunctionDeclaration(node) && node.name && node.body) {
      emit(node.name.text, node);
    } else if (ts.isClassDeclaration(node) && node.name) {
      emit(node.name.text, node);
    } else if ((ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)
        || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node))
        && node.body && (ts.isClassDeclaration(node.parent) || ts.isClassExpression(node.parent))) {
      emit(ts.isConstructorDeclaration(node) ? "constructor" : node.name.getText(sf), node);
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)
        && isFunctionValue(node.initializer)) {
      const list = node.parent;
      const statement = list.parent;
      const whole = list.declarations.length === 1
        && (ts.isVariableStatement(statement) || ts.isForStatement(statement)) ? statement : node;
      emit(node.name.text, ts.isVariableStatement(whole) ? whole : node);
    } else if (ts.isPropertyDeclaration(node) && ts.isIdentifier(node.name)
        && isFunctionValue(node.initializer)) {
      emit(node.name.text, node);
    } else if (typescript && (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)
        || ts.isEnumDeclaration(node))) {
      emit(node.name.text, node);
    } else if (typescript && ts.isModuleDeclaration(node) && (node.flags & ts.NodeFlags.Namespace)
        && !ts.isModuleDeclaration(node.parent)) {
      emit(node.name.getText(sf) + (node.body && ts.isModuleDeclaration(node.body)
        ? "." + dotted(node.body) : ""), node);
    }
    ts.forEachChild(node, visit);
  }
  function dotted(m) {
    return m.name.getText(sf) + (m.body && ts.isModuleDeclaration(m.body) ? "." + dotted(m.body) : "");
  }
  visit(sf);
}

const root = process.argv[2];
const paths = fs.readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const rel of paths) {
  const out = [];
  try {
    extract(root, rel, out);
  } catch (err) {
    out.length = 0;
    out.push(JSON.stringify({path: rel, error: String(err)}));
  }
  process.stdout.write(out.map((line) => line + "\n").join(""));
}
