// Definitions of Java files through javac's tree API (com.sun.source.tree, parse only):
// one JSON object a line per definition (classes, interfaces, enums, records, annotation
// types, methods, constructors), with its leaf name (a constructor is named after its
// class), its span (annotations included, javadoc not) and its text as javac's pretty
// printer prints it (no comments). Usage: java -cp <javac -d DIR> Extract ROOT < paths
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class Extract {
  static PrintStream out;

  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (c < 0x20) b.append(String.format("\\u%04x", (int) c)); else b.append(c);
      }
    }
    return b.append('"').toString();
  }

  public static void main(String[] args) throws Exception {
    out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    String root = args[0];
    List<String> paths = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) if (!line.isEmpty()) paths.add(line);
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    for (String rel : paths) {
      // one task per file: a file javac cannot parse is reported alone
      try (StandardJavaFileManager fm = javac.getStandardFileManager(d -> {}, null, StandardCharsets.UTF_8)) {
        Iterable<? extends JavaFileObject> files = fm.getJavaFileObjects(new File(root, rel));
        List<String> errors = new ArrayList<>();
        JavacTask task = (JavacTask) javac.getTask(null, fm, d -> {
          if (d.getKind() == javax.tools.Diagnostic.Kind.ERROR) errors.add(d.getMessage(null));
        }, List.of("-proc:none", "--enable-preview", "--release", "17"), null, files);
        SourcePositions pos = Trees.instance(task).getSourcePositions();
        for (CompilationUnitTree unit : task.parse()) {
          if (!errors.isEmpty()) {
            out.println("{\"path\":" + json(rel) + ",\"error\":" + json(errors.get(0)) + "}");
            continue;
          }
          new Walker(rel, unit, pos).scan(unit, null);
        }
      }
    }
    out.flush();
  }

  static class Walker extends TreeScanner<Void, Void> {
    final String rel;
    final CompilationUnitTree unit;
    final SourcePositions pos;
    final LineMap lines;
    final Deque<String> classes = new ArrayDeque<>();

    Walker(String rel, CompilationUnitTree unit, SourcePositions pos) {
      this.rel = rel;
      this.unit = unit;
      this.pos = pos;
      this.lines = unit.getLineMap();
    }

    void emit(String name, Tree node) {
      long s = pos.getStartPosition(unit, node), e = pos.getEndPosition(unit, node);
      out.println("{\"path\":" + json(rel) + ",\"name\":" + json(name) + ",\"def\":true"
          + ",\"sl\":" + lines.getLineNumber(s) + ",\"sc\":" + lines.getColumnNumber(s)
          + ",\"el\":" + lines.getLineNumber(e - 1) + ",\"ec\":" + lines.getColumnNumber(e - 1)
          + ",\"body\":" + json(node.toString()) + "}");
    }

    @Override
    public Void visitClass(ClassTree node, Void v) {
      String name = node.getSimpleName().toString();
      if (!name.isEmpty()) emit(name, node);
      classes.push(name);
      try {
        return super.visitClass(node, v);
      } finally {
        classes.pop();
      }
    }

    @Override
    public Void visitMethod(MethodTree node, Void v) {
      String name = node.getName().toString();
      if (name.equals("<init>")) name = classes.isEmpty() ? name : classes.peek();
      if (!name.isEmpty()) emit(name, node);
      return super.visitMethod(node, v);
    }
  }
}
