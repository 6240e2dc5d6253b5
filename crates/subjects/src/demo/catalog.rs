//! The shop's fixed product catalogue.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Category {
    Kitchen,
    Garden,
    Office,
}

impl Category {
    pub(crate) const ALL: [Category; 3] = [Category::Kitchen, Category::Garden, Category::Office];

    /// The value used in `?category=`.
    pub(crate) fn slug(self) -> &'static str {
        match self {
            Category::Kitchen => "kitchen",
            Category::Garden => "garden",
            Category::Office => "office",
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Category::Kitchen => "Kitchen",
            Category::Garden => "Garden",
            Category::Office => "Office",
        }
    }

    pub(crate) fn from_slug(slug: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.slug() == slug)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Product {
    pub(crate) id: u32,
    pub(crate) name: &'static str,
    pub(crate) category: Category,
    /// Whole cents, so that totals add up exactly.
    pub(crate) price_cents: u32,
    pub(crate) description: &'static str,
    /// CSS colour of the picture placeholder; real images would be extra requests that
    /// add nothing to what the shop is for.
    pub(crate) colour: &'static str,
}

pub(crate) const PRODUCTS: [Product; 8] = [
    Product {
        id: 1,
        name: "Enamel Coffee Mug",
        category: Category::Kitchen,
        price_cents: 1200,
        description: "A sturdy enamel mug for camp coffee and desk tea alike. Holds 350 ml.",
        colour: "#d97757",
    },
    Product {
        id: 2,
        name: "Chef's Knife",
        category: Category::Kitchen,
        price_cents: 4900,
        description: "A 20 cm carbon-steel chef's knife with a walnut handle.",
        colour: "#8a8f98",
    },
    Product {
        id: 3,
        name: "Herb Planter",
        category: Category::Garden,
        price_cents: 2450,
        description: "A three-pot terracotta planter for basil, thyme and parsley on a windowsill.",
        colour: "#6a9955",
    },
    Product {
        id: 4,
        name: "Watering Can",
        category: Category::Garden,
        price_cents: 1800,
        description: "A galvanised 5-litre watering can with a detachable rose.",
        colour: "#4f7cac",
    },
    Product {
        id: 5,
        name: "Desk Lamp",
        category: Category::Office,
        price_cents: 3990,
        description: "An adjustable steel desk lamp with a warm LED bulb included.",
        colour: "#e2b93b",
    },
    Product {
        id: 6,
        name: "Notebook Set",
        category: Category::Office,
        price_cents: 950,
        description: "Three dotted A5 notebooks with lay-flat binding.",
        colour: "#b55d8a",
    },
    Product {
        id: 7,
        name: "Cast Iron Pan",
        category: Category::Kitchen,
        price_cents: 3400,
        description: "A pre-seasoned 26 cm cast iron pan that will outlive its owner.",
        colour: "#3b3b3b",
    },
    Product {
        id: 8,
        name: "Pruning Shears",
        category: Category::Garden,
        price_cents: 2100,
        description: "Bypass pruning shears with a safety lock, for stems up to 20 mm.",
        colour: "#a0522d",
    },
];

/// Shown on the home page: two garden products, whose reviews are broken, so that the
/// reviews fault is often one click away, and a kitchen product, whose reviews work.
pub(crate) const FEATURED: [u32; 3] = [1, 3, 8];

pub(crate) fn product(id: u32) -> Option<&'static Product> {
    PRODUCTS.iter().find(|p| p.id == id)
}

/// `1234` cents -> `"€12.34"`.
pub(crate) fn price(cents: u32) -> String {
    format!("€{}.{:02}", cents / 100, cents % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_prices() {
        assert_eq!(price(1200), "€12.00");
        assert_eq!(price(2450), "€24.50");
        assert_eq!(price(5), "€0.05");
    }

    #[test]
    fn ids_are_unique_and_featured_exist() {
        for (i, p) in PRODUCTS.iter().enumerate() {
            assert!(PRODUCTS[i + 1..].iter().all(|q| q.id != p.id));
        }
        assert!(FEATURED.iter().all(|id| product(*id).is_some()));
        assert!(
            FEATURED
                .iter()
                .filter_map(|id| product(*id))
                .any(|p| p.category == Category::Garden)
        );
    }
}
