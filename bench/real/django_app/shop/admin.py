from django.contrib import admin

from .models import Category, Customer, Order, OrderLine, Product, Tag


@admin.register(Tag)
class TagAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "parent", "visible"]
    list_filter = ["visible", "parent"]
    search_fields = ["name", "description"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ["name", "sku", "category", "price", "status", "in_stock", "released"]
    list_filter = ["status", "in_stock", "category", "tags"]
    list_editable = ["price", "in_stock"]
    search_fields = ["name", "sku", "description"]
    date_hierarchy = "released"
    filter_horizontal = ["tags"]
    actions = ["mark_discontinued"]

    @admin.action(description="Mark selected products as discontinued")
    def mark_discontinued(self, request, queryset):
        n = queryset.update(status=Product.Status.DISCONTINUED, in_stock=False)
        self.message_user(request, "%d products discontinued." % n)


class OrderLineInline(admin.TabularInline):
    model = OrderLine
    extra = 1
    autocomplete_fields = ["product"]


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["number", "customer", "placed", "status", "paid", "total"]
    list_filter = ["status", "paid", "placed"]
    search_fields = ["number", "customer__last_name", "customer__email"]
    date_hierarchy = "placed"
    inlines = [OrderLineInline]
    raw_id_fields = ["customer"]


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ["__str__", "email", "company", "country", "tier", "active",
                    "customer_since"]
    list_filter = ["tier", "country", "active", "newsletter", "verified"]
    search_fields = ["first_name", "last_name", "email", "company", "city"]
    date_hierarchy = "customer_since"
    filter_horizontal = ["interests"]
    fieldsets = [
        ("Identity", {"fields": [("first_name", "last_name"), "email", "phone",
                                 "birth_date", "company", "vat_number", "website"]}),
        ("Address", {"fields": ["street", "street2", ("postcode", "city"), "region",
                                "country"]}),
        ("Account", {"fields": ["tier", "preferred_contact", "newsletter", "active",
                                "verified", "credit_limit", "discount_percent",
                                "loyalty_points", "customer_since", "last_contacted",
                                "favourite_category", "interests", "contract"]}),
        ("Notes", {"classes": ["collapse"], "fields": ["notes", "internal_notes"]}),
    ]
