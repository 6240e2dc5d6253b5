from django.conf import settings
from django.contrib import admin
from django.urls import path, re_path
from django.views.generic import RedirectView
from django.views.static import serve

admin.site.site_header = "Curio bench shop"
admin.site.site_title = "Bench shop admin"

urlpatterns = [
    # The admin's "View site" link points here.
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
    path("admin/", admin.site.urls),
    # Uploaded files (FileField links in the admin), from the run's data directory.
    re_path(r"^media/(?P<path>.*)$", serve, {"document_root": settings.MEDIA_ROOT}),
]
