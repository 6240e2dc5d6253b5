from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models


class Tag(models.Model):
    name = models.CharField(max_length=40, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Category(models.Model):
    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(unique=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="children"
    )
    description = models.TextField(blank=True)
    visible = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "categories"

    def __str__(self):
        return self.name


class Product(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        ACTIVE = "active", "Active"
        DISCONTINUED = "discontinued", "Discontinued"

    name = models.CharField(max_length=120)
    sku = models.CharField("SKU", max_length=20, unique=True)
    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="products")
    tags = models.ManyToManyField(Tag, blank=True, related_name="products")
    price = models.DecimalField(max_digits=8, decimal_places=2,
                                validators=[MinValueValidator(0)])
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    in_stock = models.BooleanField(default=True)
    stock_count = models.PositiveIntegerField(default=0)
    released = models.DateField(null=True, blank=True)
    description = models.TextField(blank=True)
    manual = models.FileField(upload_to="manuals/", blank=True,
                              help_text="A PDF or text manual.")

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return "%s (%s)" % (self.name, self.sku)


class Order(models.Model):
    class Status(models.TextChoices):
        NEW = "new", "New"
        PAID = "paid", "Paid"
        SHIPPED = "shipped", "Shipped"
        CANCELLED = "cancelled", "Cancelled"

    number = models.CharField(max_length=12, unique=True)
    customer = models.ForeignKey("Customer", on_delete=models.CASCADE, related_name="orders")
    placed = models.DateField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.NEW)
    paid = models.BooleanField(default=False)
    shipping = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-placed", "number"]

    def __str__(self):
        return self.number

    def total(self):
        return sum((line.subtotal() for line in self.lines.all()), self.shipping)


class OrderLine(models.Model):
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="lines")
    product = models.ForeignKey(Product, on_delete=models.PROTECT)
    quantity = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    unit_price = models.DecimalField(max_digits=8, decimal_places=2)

    def __str__(self):
        return "%s x %s" % (self.quantity, self.product.name)

    def subtotal(self):
        return self.quantity * self.unit_price


class Customer(models.Model):
    """A customer with many fields: its change form is a big admin page."""

    class Tier(models.TextChoices):
        BRONZE = "bronze", "Bronze"
        SILVER = "silver", "Silver"
        GOLD = "gold", "Gold"

    class Contact(models.TextChoices):
        EMAIL = "email", "E-mail"
        PHONE = "phone", "Phone"
        POST = "post", "Post"

    # Identity
    first_name = models.CharField(max_length=60)
    last_name = models.CharField(max_length=60)
    email = models.EmailField(unique=True)
    phone = models.CharField(max_length=30, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    company = models.CharField(max_length=100, blank=True)
    vat_number = models.CharField("VAT number", max_length=20, blank=True)
    website = models.URLField(blank=True)
    # Address
    street = models.CharField(max_length=120, blank=True)
    street2 = models.CharField("street (line 2)", max_length=120, blank=True)
    city = models.CharField(max_length=60, blank=True)
    postcode = models.CharField(max_length=12, blank=True)
    region = models.CharField(max_length=60, blank=True)
    country = models.CharField(max_length=2, default="FR", choices=[
        ("FR", "France"), ("DE", "Germany"), ("GB", "United Kingdom"), ("PT", "Portugal"),
        ("US", "United States"), ("JP", "Japan"),
    ])
    # Account
    tier = models.CharField(max_length=10, choices=Tier.choices, default=Tier.BRONZE)
    preferred_contact = models.CharField(max_length=10, choices=Contact.choices,
                                         default=Contact.EMAIL)
    newsletter = models.BooleanField(default=False)
    active = models.BooleanField(default=True)
    verified = models.BooleanField(default=False)
    credit_limit = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    discount_percent = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(50)])
    loyalty_points = models.IntegerField(default=0)
    customer_since = models.DateField(null=True, blank=True)
    last_contacted = models.DateTimeField(null=True, blank=True)
    favourite_category = models.ForeignKey(Category, null=True, blank=True,
                                           on_delete=models.SET_NULL)
    interests = models.ManyToManyField(Tag, blank=True)
    contract = models.FileField(upload_to="contracts/", blank=True)
    notes = models.TextField(blank=True)
    internal_notes = models.TextField(blank=True)

    class Meta:
        ordering = ["last_name", "first_name"]

    def __str__(self):
        return "%s %s" % (self.first_name, self.last_name)
