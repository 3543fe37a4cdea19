// Ordinary code of each language a custom structural rule may be written for: the text a rule is
// tried on before it is stored (does it single out anything, what does it cost per MiB). Calls,
// strings, concatenation, classes, loops and comments, so that most rules find candidates in it.
import type { CustomStructuralLanguage } from "./structuralPattern.js";

const JS = `import { exec } from "child_process";
// Handles a request: reads the id, builds a query, logs the user.
export async function handler(req, res) {
  const id = req.query.id;
  const sql = "SELECT * FROM users WHERE id = " + id;
  const rows = await db.query(sql, [id]);
  for (const row of rows) { if (row.admin && row.active) console.log(\`admin \${row.name}\`); }
  exec("ls -la " + req.body.dir, (err, out) => res.send(out));
  return res.json({ ok: true, count: rows.length, items: rows.map((r) => r.id) });
}
class Store { constructor(db) { this.db = db; } get(key) { return this.db.get(key) ?? null; } }
`;

const PROBES: Readonly<Record<CustomStructuralLanguage, string>> = {
  python: `import os
import subprocess
# Handles a request: reads the id, builds a query, logs the user.
def handler(request, db):
    user_id = request.args.get("id")
    sql = "SELECT * FROM users WHERE id = %s" % user_id
    rows = db.execute(sql, (user_id,))
    for row in rows:
        if row.admin and row.active:
            print(f"admin {row.name}")
    subprocess.run(["ls", "-la", request.form["dir"]], check=True)
    os.system("echo " + user_id)
    return {"ok": True, "count": len(rows), "items": [r.id for r in rows]}

class Store:
    def __init__(self, db):
        self.db = db
    def get(self, key):
        return self.db.get(key) or None
`,
  javascript: JS,
  typescript: JS.replace("(req, res)", "(req: Request, res: Response): Promise<void>").replace(
    "constructor(db)",
    "constructor(private db: Db)",
  ),
  tsx: `${JS}export const Row = ({ name, link }: { name: string; link: string }) => <a href={link}>{name}</a>;
`,
  java: `import java.sql.*;
// Handles a request: reads the id, builds a query, logs the user.
public class Handler {
  private final Connection db;
  public Handler(Connection db) { this.db = db; }
  public String handle(HttpServletRequest request) throws Exception {
    String id = request.getParameter("id");
    String sql = "SELECT * FROM users WHERE id = " + id;
    ResultSet rows = db.createStatement().executeQuery(sql);
    int count = 0;
    while (rows.next()) { if (rows.getBoolean("admin")) { System.out.println("admin " + rows.getString("name")); count++; } }
    Runtime.getRuntime().exec("ls -la " + request.getParameter("dir"));
    return String.format("{\\"ok\\": true, \\"count\\": %d}", count);
  }
}
`,
  go: `package handler

import (
	"database/sql"
	"fmt"
	"net/http"
	"os/exec"
)

// Handle reads the id, builds a query, logs the user.
func Handle(w http.ResponseWriter, r *http.Request, db *sql.DB) error {
	id := r.URL.Query().Get("id")
	rows, err := db.Query("SELECT * FROM users WHERE id = " + id)
	if err != nil {
		return err
	}
	count := 0
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err == nil && name != "" {
			fmt.Println("admin", name)
			count++
		}
	}
	out, _ := exec.Command("sh", "-c", "ls -la "+r.FormValue("dir")).Output()
	_, err = fmt.Fprintf(w, "{\\"ok\\": true, \\"count\\": %d, \\"out\\": %q}", count, out)
	return err
}
`,
  ruby: `require "open3"
# Handles a request: reads the id, builds a query, logs the user.
class UsersController < ApplicationController
  def show
    id = params[:id]
    rows = User.where("id = #{id}").to_a
    rows.each do |row|
      puts "admin #{row.name}" if row.admin && row.active
    end
    out, _status = Open3.capture2("ls -la " + params[:dir])
    render json: { ok: true, count: rows.length, items: rows.map(&:id), out: out }
  end
end
`,
  php: `<?php
// Handles a request: reads the id, builds a query, logs the user.
class Handler {
    private $db;
    public function __construct($db) { $this->db = $db; }
    public function handle() {
        $id = $_GET['id'];
        $rows = $this->db->query("SELECT * FROM users WHERE id = " . $id);
        foreach ($rows as $row) {
            if ($row['admin'] && $row['active']) { echo "admin " . htmlspecialchars($row['name']); }
        }
        $out = shell_exec("ls -la " . $_POST['dir']);
        return json_encode(['ok' => true, 'count' => count($rows), 'out' => $out]);
    }
}
`,
  csharp: `using System.Data.SqlClient;
using System.Diagnostics;
// Handles a request: reads the id, builds a query, logs the user.
public class Handler {
    private readonly SqlConnection db;
    public Handler(SqlConnection db) { this.db = db; }
    public string Handle(HttpRequest request) {
        var id = request.Query["id"];
        var cmd = new SqlCommand("SELECT * FROM users WHERE id = " + id, db);
        var count = 0;
        using (var rows = cmd.ExecuteReader()) {
            while (rows.Read()) { if (rows.GetBoolean(1)) { Console.WriteLine($"admin {rows.GetString(0)}"); count++; } }
        }
        Process.Start("sh", "-c ls " + request.Form["dir"]);
        return $"{{\\"ok\\": true, \\"count\\": {count}}}";
    }
}
`,
  kotlin: `import java.sql.Connection
// Handles a request: reads the id, builds a query, logs the user.
class Handler(private val db: Connection) {
    fun handle(request: HttpServletRequest): String {
        val id = request.getParameter("id")
        val rows = db.createStatement().executeQuery("SELECT * FROM users WHERE id = " + id)
        var count = 0
        while (rows.next()) {
            if (rows.getBoolean("admin")) { println("admin \${rows.getString("name")}"); count++ }
        }
        Runtime.getRuntime().exec("ls -la " + request.getParameter("dir"))
        return "{\\"ok\\": true, \\"count\\": $count}"
    }
}
`,
};

/** One copy of the language's probe code (for the does-it-single-anything-out check). */
export function probeSnippet(language: CustomStructuralLanguage): string {
  return PROBES[language];
}

/** The probe code repeated to about `bytes` (for the cost measure): its imports once, its code again and again. */
export function probeText(language: CustomStructuralLanguage, bytes: number): string {
  const one = PROBES[language];
  const split = one.search(/^\s*(?:\/\/|#) Handle/m);
  const head = one.slice(0, split);
  const body = one.slice(split);
  const copies = Math.max(1, Math.floor((bytes - head.length) / Buffer.byteLength(body, "utf8")));
  return head + body.repeat(copies);
}
