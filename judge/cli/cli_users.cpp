// judge users add|import|list|token: the online judge's accounts (judge/service/accounts.hpp). A token
// is printed once, when made; the store keeps only its hash.
#include "cli.hpp"

#include "accounts.hpp"
#include "results_db.hpp"
#include "solution_files.hpp"

#include <cstdio>

namespace judge::cli {

namespace {
struct users_flags {
  std::string name, role = "student", roster, db_file;
};

template <typename F> int with_accounts(const context& ctx, const users_flags& f, F body) {
  results_db store(ctx.where.store(f.db_file));
  service::accounts users(store.connection());
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
  CLI::App* users = app.add_subcommand("users", "the online judge's accounts: add, import, list, token");
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
                                 "add every account of a roster (CSV: name,role per line) "
                                 "and print their tokens; all or none",
                                 [&ctx, flags] {
                                   return with_accounts(ctx, *flags, [&](service::accounts& a) {
                                     for (const auto& [name, token] : a.import_roster(flags->roster))
                                       print_token(name, token);
                                   });
                                 });
  import->add_option("roster", flags->roster, "the roster's CSV file")->required()->check(CLI::ExistingFile);
  add_store_option(*import, flags->db_file);

  CLI::App* list = add_command(*users, ctx, "list", "list the accounts (never their tokens)", [&ctx, flags] {
    return with_accounts(ctx, *flags, [&](service::accounts& a) {
      for (const service::account& u : a.list())
        std::printf("%-24s %-10s %s\n", u.name.c_str(), service::role_name(u.who).c_str(), u.created_at.c_str());
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
}

} // namespace judge::cli
