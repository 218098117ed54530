// judge users add|import|list|token|disable|remove: the online judge's accounts (judge/service/queue/accounts.hpp). A token
// is printed once, when made; the store keeps only its hash.
#include "judge/cli/cli.hpp"

#include "judge/service/queue/accounts.hpp"
#include "judge/store/results_db.hpp"
#include "judge/base/usage_error.hpp"

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

void print_token(const std::string& name, const std::string& token) {
  std::printf("%s %s\n", name.c_str(), token.c_str());
}
} // namespace

void add_users(CLI::App& app, context& ctx) {
  CLI::App* users =
      app.add_subcommand("users", "the online judge's accounts: add, import, list, token, disable, remove");
  users->require_subcommand(1);
  auto flags = std::make_shared<users_flags>();

  CLI::App* add = add_command(*users, ctx, "add", "add an account and print its token (shown once)", [&ctx, flags] {
    return with_accounts(ctx, *flags, [&](service::accounts& a) {
      print_token(flags->name, a.add(flags->name, service::parse_role(flags->role)));
    });
  });
  add->add_option("name", flags->name, "account name (letters, digits, '_', '.', '-')")->required();
  add->add_option("--role", flags->role, "student or instructor (default student)");
  add_store_option(*add, flags->db_file);

  CLI::App* import = add_command(*users, ctx, "import",
                                 "add the accounts of a roster (CSV: name,role per line) that are not there yet "
                                 "and print their tokens; all or none",
                                 [&ctx, flags] {
                                   return with_accounts(ctx, *flags, [&](service::accounts& a) {
                                     const auto done = a.import_roster(flags->roster);
                                     for (const auto& [name, token] : done.added) print_token(name, token);
                                     // On stderr: stdout stays "name token" lines for a mail merge.
                                     if (!done.kept.empty())
                                       std::fprintf(stderr,
                                                    "judge: %zu account(s) exist already and keep their "
                                                    "tokens: %s\n",
                                                    done.kept.size(), join(done.kept).c_str());
                                   });
                                 });
  import->add_option("roster", flags->roster, "the roster's CSV file")->required()->check(CLI::ExistingFile);
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
        return with_accounts(ctx, *flags,
                             [&](service::accounts& a) { print_token(flags->name, a.rotate_token(flags->name)); });
      });
  token->add_option("name", flags->name, "account name")->required();
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
