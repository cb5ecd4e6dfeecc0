"""ORM and console one-liners in quoted code that an application's runner executes against its own
database (`rails runner`, `gitlab-rails runner`, `manage.py shell -c`, `artisan tinker --execute`,
`mix run -e`, `drush php:eval`, `wp eval`, `bench execute`, `odoo shell` fed a line): destroy, delete_all,
truncate, drop inside the string; and the same runners' reads that stay quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("gitlab-rails runner \"Project.where(archived: true).each(&:destroy)\"", "medium"),
    ("gitlab-rails runner 'User.where(state: \"blocked\").destroy_all'", "medium"),
    ("rails runner 'Post.delete_all'", "medium"),
    ("bin/rails runner -e production \"Order.destroy_all\"", "medium"),
    ("bundle exec rails r 'ActiveRecord::Base.connection.execute(\"TRUNCATE users\")'", "medium"),
    ("RAILS_ENV=production bundle exec rails runner \"Account.find_each(&:destroy!)\"", "medium"),
    ("echo 'User.destroy_all' | rails console", "medium"),
    ("python manage.py shell -c \"from shop.models import Order; Order.objects.all().delete()\"", "medium"),
    ("./manage.py shell --command='User.objects.filter(is_staff=False).delete()'", "medium"),
    ("django-admin shell -c 'from django.db import connection; connection.cursor().execute(\"DROP TABLE "
     "auth_user\")'", "medium"),
    ("php artisan tinker --execute=\"App\\\\Models\\\\User::truncate()\"", "medium"),
    ("php artisan tinker --execute \"DB::table('orders')->delete()\"", "medium"),
    ("php artisan tinker --execute='Schema::drop(\"users\")'", "medium"),
    ("mix run -e 'MyApp.Repo.delete_all(MyApp.Accounts.User)'", "medium"),
    ("mix run -e \"Ecto.Adapters.SQL.query!(MyApp.Repo, \\\"DROP TABLE users\\\")\"", "medium"),
    ("bin/my_app eval 'MyApp.Repo.delete_all(MyApp.Order)'", "medium"),
    ("drush php:eval \"\\\\Drupal::entityTypeManager()->getStorage('node')->delete($nodes)\"", "medium"),
    ("drush ev 'node_delete_multiple(range(1, 500));'", "medium"),
    ("wp eval 'foreach (get_posts([\"numberposts\" => -1]) as $p) wp_delete_post($p->ID, true);'", "medium"),
    ("bench --site site1.local execute frappe.db.truncate --args \"['ToDo']\"", "medium"),
    ("heroku run rails runner 'Event.delete_all' -a shop", "medium"),
    ("kubectl exec deploy/web -- bin/rails runner 'Session.delete_all'", "medium"),
    ("docker compose exec web python manage.py shell -c 'Customer.objects.all().delete()'", "medium"),
    ("flask shell <<< 'db.drop_all()'", "medium"),
    ("odoo shell -d prod <<< \"env['res.partner'].search([]).unlink(); env.cr.commit()\"", "medium"),
    ("rake runner 'Comment.destroy_all'", "medium"),
    ("hanami runner 'UserRepository.new.clear'", "medium"),
    # neighbours: other ORMs' ways of deleting, and SQL fed to a framework's database shell
    ("python manage.py dbshell <<< 'DROP TABLE orders;'", "medium"),
    ("node -e \"require('./models').User.destroy({ where: {}, truncate: true })\"", "medium"),
    ("python manage.py shell -c \"from django.core.management import call_command; call_command('flush', "
     "interactive=False)\"", "medium"),
    ("rails runner 'ActiveRecord::Tasks::DatabaseTasks.drop_current'", "medium"),
    ("php artisan tinker --execute=\"Artisan::call('migrate:fresh', ['--force' => true])\"", "medium"),
    ("rails runner \"Rake::Task['db:drop'].invoke\"", "medium"),
    ("flask shell <<< 'db.session.query(User).delete(); db.session.commit()'", "medium"),
    ("python -c 'from app.models import User; User.delete().execute()'", "medium"),
    ("php artisan tinker --execute='User::destroy(User::pluck(\"id\"))'", "medium"),
    ("python manage.py sqlflush | python manage.py dbshell", "medium"),
    ("php artisan db:seed --class=TruncateAllSeeder --force", "medium"),
    ("MIX_ENV=prod mix run priv/repo/wipe.exs", "medium"),
    ("bin/rails runner script/purge_all_accounts.rb", "medium"),
    ("python manage.py runscript nuke_orders", "medium"),
    ("node -e \"require('./db').knex('users').del().then(() => process.exit())\"", "medium"),
])
def test_orm_one_liners_that_destroy_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "gitlab-rails runner 'puts Gitlab::VERSION'",
    "rails runner 'puts User.count'",
    "bin/rails runner -e production 'Rails.cache.clear'",
    "rails runner 'User.find(1).update(name: \"x\")'",
    "python manage.py shell -c 'print(User.objects.count())'",
    "python manage.py shell -c 'from django.core.cache import cache; cache.clear()'",
    "php artisan tinker --execute='User::count()'",
    "mix run -e 'IO.puts MyApp.Repo.aggregate(MyApp.User, :count)'",
    "drush php:eval 'echo \\Drupal::VERSION;'",
    "wp eval 'echo get_option(\"siteurl\");'",
    "bench --site site1.local execute frappe.utils.now",
    "flask shell <<< 'print(User.query.count())'",
    "rails runner 'Session.where(\"updated_at < ?\", 30.days.ago).count'",
    "python manage.py shell",
    "php artisan tinker",
    "rails console",
    "python manage.py sqlflush",
    "php artisan db:seed --class=UserSeeder --force",
    "mix run priv/repo/seeds.exs",
    "bin/rails runner script/purge_cache.rb",
    "poetry run python scripts/truncate_logs.py",
    "npm run build",
])
def test_orm_one_liners_that_read_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
