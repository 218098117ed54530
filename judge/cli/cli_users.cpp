// judge users add|import|list|token|disable|remove: the online judge's accounts (judge/service/queue/accounts.hpp). A
// token is printed once, when made (as "name token" lines, or with --csv as CSV for a mail merge); the store keeps only
// its hash.
#include "judge/cli/cli.hpp"

#include "judge/base/usage_error.hpp"
#include "judge/report/leaderboard.hpp"
#include "judge/service/queue/accounts.hpp"
#include "judge/store/results_db.hpp"

#include <cstdio>

namespace judge::cli {

namespace {
std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

struct users_flags {
  std::string name, role = "student", roster, db_file;
  bool csv = false;
};

template <typename F> int with_accounts(const context& ctx, const users_flags& f, F body) {
  results_db store(ctx.where.store(f.db_file));
  service::accounts users(store);
  try {
    body(users);
  } catch (const service::account_error& e) {
    throw usage_error(e.what());
  }
  return all_accepted;
}

/// An account and the token just made for it.
struct issued {
  std::string name, role, token;
};

/// "name token" lines; or, with `csv`, RFC 4180 CSV with CRLF line ends (as the gradebook's) under an
/// `account,role,token` header, which stays when no token was made so that a mail merge reads an empty list.
void print_tokens(const std::vector<issued>& tokens, bool csv) {
  if (!csv) {
    for (const issued& t : tokens) std::printf("%s %s\n", t.name.c_str(), t.token.c_str());
    return;
  }
  std::string out = "account,role,token\r\n";
  for (const issued& t : tokens) out += csv_field(t.name) + "," + csv_field(t.role) + "," + csv_field(t.token) + "\r\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

/// `name`'s role as the accounts table holds it.
std::string role_of(service::accounts& a, const std::string& name) {
  const auto found = a.find(name);
  return found ? service::role_name(found->who) : "";
}

void add_csv_option(CLI::App& command, users_flags& f) {
  command.add_flag(
      "--csv", f.csv,
      "print CSV (account,role,token; RFC 4180, CRLF line ends) for a mail merge instead of \"name token\" "
      "lines");
}
} // namespace

void add_users(CLI::App& app, context& ctx) {
  CLI::App* users =
      app.add_subcommand("users", "the online judge's accounts: add, import, list, token, disable, remove");
  users->require_subcommand(1);
  auto flags = std::make_shared<users_flags>();

  CLI::App* add = add_command(*users, ctx, "add", "add an account and print its token (shown once)", [&ctx, flags] {
    return with_accounts(ctx, *flags, [&](service::accounts& a) {
      const service::role who = service::parse_role(flags->role);
      print_tokens({{flags->name, service::role_name(who), a.add(flags->name, who)}}, flags->csv);
    });
  });
  add->add_option("name", flags->name, "account name (letters, digits, '_', '.', '-')")->required();
  add->add_option("--role", flags->role, "student or instructor (default student)");
  add_csv_option(*add, *flags);
  add_store_option(*add, flags->db_file);

  CLI::App* import = add_command(*users, ctx, "import",
                                 "add the accounts of a roster (CSV: name,role per line) that are not there yet "
                                 "and print their tokens; all or none",
                                 [&ctx, flags] {
                                   return with_accounts(ctx, *flags, [&](service::accounts& a) {
                                     const auto done = a.import_roster(flags->roster);
                                     std::vector<issued> tokens;
                                     for (const auto& [name, token] : done.added)
                                       tokens.push_back({name, role_of(a, name), token});
                                     print_tokens(tokens, flags->csv);
                                     // On stderr: stdout stays the tokens alone, for a mail merge.
                                     if (!done.kept.empty())
                                       std::fprintf(stderr,
                                                    "judge: %zu account(s) exist already and keep their "
                                                    "tokens: %s\n",
                                                    done.kept.size(), join(done.kept).c_str());
                                   });
                                 });
  import->add_option("roster", flags->roster, "the roster's CSV file")->required()->check(CLI::ExistingFile);
  add_csv_option(*import, *flags);
  add_store_option(*import, flags->db_file);

  CLI::App* list = add_command(*users, ctx, "list", "list the accounts (never their tokens)", [&ctx, flags] {
    return with_accounts(ctx, *flags, [&](service::accounts& a) {
      std::printf("%-24s %-10s %s\n", "name", "role", "created at");
      for (const service::account& u : a.list())
        std::printf("%-24s %-10s %s%s\n", u.name.c_str(), service::role_name(u.who).c_str(), u.created_at.c_str(),
                    u.disabled ? "  disabled" : "");
    });
  });
  add_store_option(*list, flags->db_file);

  CLI::App* token =
      add_command(*users, ctx, "token", "make a new token for an account (the old one stops working)", [&ctx, flags] {
        return with_accounts(ctx, *flags, [&](service::accounts& a) {
          const std::string made = a.rotate_token(flags->name);
          print_tokens({{flags->name, role_of(a, flags->name), made}}, flags->csv);
        });
      });
  token->add_option("name", flags->name, "account name")->required();
  add_csv_option(*token, *flags);
  add_store_option(*token, flags->db_file);

  CLI::App* disable = add_command(*users, ctx, "disable",
                                  "stop an account from signing in (its submissions stay; `users token` enables it "
                                  "again with a new token)",
                                  [&ctx, flags] {
                                    return with_accounts(ctx, *flags, [&](service::accounts& a) {
                                      a.disable(flags->name);
                                      std::printf("%s disabled\n", flags->name.c_str());
                                    });
                                  });
  disable->add_option("name", flags->name, "account name")->required();
  add_store_option(*disable, flags->db_file);

  CLI::App* remove = add_command(*users, ctx, "remove", "remove an account that has no submissions", [&ctx, flags] {
    return with_accounts(ctx, *flags, [&](service::accounts& a) {
      a.remove(flags->name);
      std::printf("%s removed\n", flags->name.c_str());
    });
  });
  remove->add_option("name", flags->name, "account name")->required();
  add_store_option(*remove, flags->db_file);
}

} // namespace judge::cli
