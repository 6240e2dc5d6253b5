"""Seed the bench shop: a superuser, a staff user and about 30 rows."""

import datetime
from decimal import Decimal

from django.contrib.auth.models import Permission, User
from django.core.files.base import ContentFile
from django.core.management.base import BaseCommand
from django.utils import timezone

from shop.models import Category, Customer, Order, OrderLine, Product, Tag


class Command(BaseCommand):
    help = "Create the bench users and seed rows (on an empty, migrated database)."

    def add_arguments(self, parser):
        parser.add_argument("--admin-password", required=True)

    def handle(self, *args, admin_password, **options):
        User.objects.create_superuser("admin", "admin@example.com", admin_password,
                                      first_name="Admin", last_name="Istrator")
        editor = User.objects.create_user("editor", "editor@example.com", "editor-bench-1",
                                          is_staff=True, first_name="Eddie")
        editor.user_permissions.set(Permission.objects.filter(
            content_type__app_label="shop", codename__regex=r"^(view|change)_"))

        tags = {n: Tag.objects.create(name=n) for n in
                ["eco", "bestseller", "new", "clearance", "gift", "bulk"]}

        root = Category.objects.create(name="Home", slug="home",
                                       description="Everything for the home.")
        cats = {"home": root}
        for name, slug, parent in [("Kitchen", "kitchen", root), ("Garden", "garden", root),
                                   ("Office", "office", None), ("Toys", "toys", None),
                                   ("Books", "books", None)]:
            cats[slug] = Category.objects.create(name=name, slug=slug, parent=parent,
                                                 visible=slug != "toys")

        products = []
        rows = [
            ("Chef's knife", "KT-001", "kitchen", "49.90", "active", True, "2023-02-01",
             ["bestseller"]),
            ("Cast-iron pan", "KT-002", "kitchen", "39.00", "active", True, "2023-05-12",
             ["eco", "gift"]),
            ("Garden hose 25 m", "GD-001", "garden", "29.95", "active", False, "2022-04-03",
             ["bulk"]),
            ("Pruning shears", "GD-002", "garden", "18.50", "draft", True, None, ["new"]),
            ("Desk lamp", "OF-001", "office", "34.00", "active", True, "2024-01-20",
             ["new", "eco"]),
            ("Ergonomic chair", "OF-002", "office", "289.00", "discontinued", False,
             "2021-09-09", ["clearance"]),
            ("Wooden train set", "TY-001", "toys", "59.99", "active", True, "2023-11-15",
             ["gift", "bestseller"]),
            ("The Pragmatic Gardener", "BK-001", "books", "24.00", "active", True,
             "2020-03-30", []),
        ]
        for name, sku, cat, price, status, stock, released, tnames in rows:
            p = Product.objects.create(
                name=name, sku=sku, category=cats[cat], price=Decimal(price), status=status,
                in_stock=stock, stock_count=12 if stock else 0,
                released=datetime.date.fromisoformat(released) if released else None,
                description="%s, sold by the bench shop." % name)
            p.tags.set([tags[t] for t in tnames])
            products.append(p)
        products[0].manual.save("chefs-knife.txt",
                                ContentFile(b"Keep the blade dry. Hone weekly.\n"))

        people = [
            ("Alice", "Martin", "Paris", "FR", "gold", "Acme SARL"),
            ("Bruno", "Schmidt", "Berlin", "DE", "silver", ""),
            ("Chloe", "Smith", "Leeds", "GB", "bronze", "Smith & Co"),
            ("Duarte", "Silva", "Porto", "PT", "gold", ""),
            ("Emily", "Jones", "Austin", "US", "bronze", "Lone Star LLC"),
            ("Haruto", "Sato", "Osaka", "JP", "silver", ""),
        ]
        customers = []
        for i, (first, last, city, country, tier, company) in enumerate(people):
            c = Customer.objects.create(
                first_name=first, last_name=last,
                email="%s.%s@example.com" % (first.lower(), last.lower()),
                phone="+33 1 23 45 67 %02d" % i, company=company, city=city,
                country=country, postcode="%05d" % (10000 + i * 1111), tier=tier,
                street="%d Main Street" % (i + 1), newsletter=i % 2 == 0,
                verified=i % 3 != 0, credit_limit=Decimal(500 * (i + 1)),
                discount_percent=5 * (i % 3), loyalty_points=120 * i,
                customer_since=datetime.date(2020 + i % 4, 1 + i, 10),
                last_contacted=timezone.now() - datetime.timedelta(days=3 * i),
                favourite_category=list(cats.values())[i % len(cats)],
                notes="Prefers %s." % ("mornings" if i % 2 else "e-mail"))
            c.interests.set(list(tags.values())[i % 3:i % 3 + 2])
            customers.append(c)

        statuses = ["new", "paid", "shipped", "cancelled", "paid", "shipped"]
        for i in range(8):
            o = Order.objects.create(
                number="SO-%04d" % (1001 + i), customer=customers[i % len(customers)],
                placed=datetime.date(2024, 1 + i, 3 + i), status=statuses[i % len(statuses)],
                paid=statuses[i % len(statuses)] in ("paid", "shipped"),
                shipping=Decimal("4.90") if i % 2 else Decimal("0"))
            for j in range(1 + i % 3):
                p = products[(i + j) % len(products)]
                OrderLine.objects.create(order=o, product=p, quantity=1 + j,
                                         unit_price=p.price)

        self.stdout.write("seeded: %d tags, %d categories, %d products, %d customers, "
                          "%d orders" % (Tag.objects.count(), Category.objects.count(),
                                         Product.objects.count(), Customer.objects.count(),
                                         Order.objects.count()))
